import { describe, expect, it } from 'vitest';
import type { DemoAgentInfo } from '../../src-shared/contract';
import {
  bodyField,
  demoForm,
  deserializeForm,
  emptyForm,
  formFromCurl,
  formFromRequest,
  formToCurl,
  formToRequest,
  headerRow,
  requestToCurl,
  serializeForm,
  upstreamForm,
  withBodyField,
  providerForm,
  type ConnectForm,
} from './connect-form';
import { parseCurl } from './curl';
import { formToTemplate } from './requests';

const demo: NonNullable<DemoAgentInfo> = {
  baseUrl: 'http://127.0.0.1:5000',
  runUrl: 'http://127.0.0.1:5000/agent/run',
  toolResultsUrl: 'http://127.0.0.1:5000/agent/tool_results',
  formats: ['json', 'xml', 'raw'],
  scenarios: [{ id: 'tour', title: 'Tour' }],
  providers: [
    {
      id: 'anthropic',
      title: 'Anthropic Messages',
      url: 'http://127.0.0.1:5000/v1/messages',
      dialect: 'anthropic-messages',
      scenarios: [{ id: 'text-citations', title: 'Thinking, text with citations' }],
      sampleBody: '{"model":"claude-sonnet-4-5","stream":true,"messages":[{"role":"user","content":"hi"}]}',
      sampleHeaders: [{ name: 'anthropic-version', value: '2023-06-01' }],
    },
    {
      id: 'openai',
      title: 'OpenAI Responses',
      url: 'http://127.0.0.1:5000/v1/responses',
      dialect: 'openai-responses',
      scenarios: [{ id: 'text-annotations', title: 'Text with citations' }],
      sampleBody: '{"model":"gpt-5","stream":true,"input":"hi"}',
      sampleHeaders: [],
    },
  ],
  defaultRequest: {
    url: 'http://127.0.0.1:5000/agent/run',
    method: 'POST',
    headers: [],
    body: { kind: 'json', text: '{"user_prompt":"hi","format":"json"}' },
    title: 'Demo agent: Tour',
  },
};

const form = (change: Partial<ConnectForm>): ConnectForm => ({
  ...emptyForm(),
  url: 'http://x.test/run',
  body: '{}',
  ...change,
});

describe('connect form', () => {
  it("builds the provider presets: a streaming request in each API's shape to the demo endpoint", () => {
    const [anthropic, openai] = demo.providers;
    const messages = providerForm(anthropic!);
    expect([messages.preset, messages.url, messages.headers.map((h) => [h.name, h.value])]).toEqual([
      'anthropic',
      'http://127.0.0.1:5000/v1/messages',
      [['anthropic-version', '2023-06-01']],
    ]);
    expect(JSON.parse(messages.body)).toMatchObject({
      stream: true,
      messages: [{ role: 'user' }],
      scenario: 'text-citations',
    });
    const responses = providerForm(openai!);
    expect(JSON.parse(responses.body)).toMatchObject({
      stream: true,
      input: expect.any(String) as string,
      scenario: 'text-annotations',
    });
    const request = formToRequest(responses);
    expect(request.ok && request.request.url).toBe('http://127.0.0.1:5000/v1/responses');
  });

  it('builds the demo preset from what main says about the demo agent', () => {
    const result = formToRequest(demoForm(demo));
    expect(result).toEqual({
      ok: true,
      request: {
        url: demo.runUrl,
        method: 'POST',
        headers: [],
        body: { kind: 'json', text: '{"user_prompt":"hi","format":"json"}' },
        title: 'Demo agent: Tour',
      },
    });
  });

  it('builds the upstream preset: POST /agent/run with user_prompt and agent_type', () => {
    const result = formToRequest(upstreamForm());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.request.method).toBe('POST');
    expect(result.request.url).toMatch(/\/agent\/run$/);
    const body = JSON.parse(result.request.body?.text ?? '') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['user_prompt', 'agent_type']);
    expect(body['agent_type']).toBe('agent_frontend_tools');
  });

  it.each([
    [{ url: '' }, 'url', /Enter the URL/],
    [{ url: 'ftp://x' }, 'url', /http:\/\/ or https:\/\//],
    [{ method: 'PO ST' }, 'method', /letters only/],
    [{ body: '{"a":' }, 'body', /not valid JSON/],
    [{ method: 'GET', body: '{}' }, 'body', /GET request has no body/],
    [{ headers: [headerRow('Bad Name', 'x')] }, 'headers', /not a valid header name/],
  ] as const)('rejects %j with a message on the field', (change, field, message) => {
    const result = formToRequest(form(change));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field]).toMatch(message);
  });

  it('sends enabled, non-empty headers in order, a raw body as written and the format override', () => {
    const result = formToRequest(
      form({
        headers: [headerRow('A', '1'), headerRow('B', '2', false), headerRow('', ''), headerRow('A', '3')],
        bodyKind: 'raw',
        body: 'not json',
        format: 'xml',
        title: '  run  ',
      }),
    );
    expect(result).toEqual({
      ok: true,
      request: {
        url: 'http://x.test/run',
        method: 'POST',
        headers: [
          ['A', '1'],
          ['A', '3'],
        ],
        body: { kind: 'raw', text: 'not json' },
        format: 'xml',
        title: 'run',
      },
    });
  });

  it('sets and removes body fields for the scenario and format pickers, keeping the others', () => {
    const start = demoForm(demo);
    const withScenario = withBodyField(start, 'scenario', 'subagents');
    expect(bodyField(withScenario, 'scenario')).toBe('subagents');
    expect(JSON.parse(withScenario.body)).toEqual({ user_prompt: 'hi', format: 'json', scenario: 'subagents' });
    const xml = withBodyField(withScenario, 'format', 'xml');
    expect(bodyField(xml, 'format')).toBe('xml');
    expect(bodyField(withBodyField(xml, 'scenario', null), 'scenario')).toBeNull();
    expect(() => withBodyField(form({ body: '[1]' }), 'format', 'xml')).toThrow(/not a JSON object/);
    expect(() => withBodyField(form({ body: '{' }), 'format', 'xml')).toThrow(/not a JSON object/);
    expect(bodyField(form({ body: '{' }), 'format')).toBeNull();
  });

  it('fills the form from curl, pretty-printing a JSON body and keeping other fields', () => {
    const previous = form({ format: 'raw', title: 'mine' });
    const next = formFromCurl(
      `curl http://h.test/agent/run -H 'Content-Type: application/json' -H 'X-Key: k' -d '{"user_prompt":"hi"}'`,
      previous,
    );
    expect(next).toMatchObject({
      preset: 'custom',
      url: 'http://h.test/agent/run',
      method: 'POST',
      bodyKind: 'json',
      body: '{\n  "user_prompt": "hi"\n}',
      format: 'raw',
      title: 'mine',
    });
    expect(next.headers.map((h) => [h.name, h.value])).toEqual([['X-Key', 'k']]);
  });

  it('keeps a non-JSON body raw with its content type', () => {
    const next = formFromCurl(`curl http://h.test -H 'Content-Type: text/plain' -d 'hello'`, emptyForm());
    expect(next.bodyKind).toBe('raw');
    expect(next.headers.map((h) => h.name)).toEqual(['Content-Type']);
  });

  it('keeps {{variables}} from a pasted curl through the form and back out as curl', () => {
    const form = formFromCurl(
      `curl -N '{{base_url}}/agent/run' -H 'Authorization: Bearer {{token}}' -H 'Content-Type: application/json' -d '{"user_prompt":"hi"}'`,
      emptyForm(),
    );
    expect(form.url).toBe('{{base_url}}/agent/run');
    const request = formToRequest(form);
    expect(request.ok && request.request.url).toBe('{{base_url}}/agent/run');
    expect(parseCurl(formToCurl(form))).toMatchObject({
      url: '{{base_url}}/agent/run',
      headers: expect.arrayContaining([['Authorization', 'Bearer {{token}}']]) as unknown,
    });
  });

  it('copies as curl what it would send', () => {
    const command = formToCurl(demoForm(demo));
    expect(parseCurl(command)).toMatchObject({
      url: demo.runUrl,
      method: 'POST',
      body: '{"user_prompt":"hi","format":"json"}',
      headers: [['Content-Type', 'application/json']],
    });
    expect(() => formToCurl(form({ url: '' }))).toThrow(/Enter the URL/);
  });

  it('copies a recorded request as curl, with its body as a string', () => {
    const command = requestToCurl({
      method: 'POST',
      url: 'http://h.test/x',
      headers: [['Authorization', '[redacted]']],
      body: '{"a":1}',
    });
    expect(parseCurl(command)).toMatchObject({ headers: [['Authorization', '[redacted]']], body: '{"a":1}' });
  });

  it('remembers the form between runs without the values of secret headers', () => {
    const original = form({
      headers: [
        headerRow('Authorization', 'Bearer secret'),
        headerRow('X-API-Key', 'k2'),
        headerRow('Accept', 'text/event-stream'),
      ],
    });
    const text = serializeForm(original);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('k2');
    const restored = deserializeForm(text);
    expect(restored?.headers.map((h) => [h.name, h.value])).toEqual([
      ['Authorization', ''],
      ['X-API-Key', ''],
      ['Accept', 'text/event-stream'],
    ]);
    expect(restored?.url).toBe(original.url);
  });

  it('asks for any content type only when ticked, and keeps the choice in the stored form, a saved request and back', () => {
    expect(formToRequest(form({}))).toMatchObject({ ok: true, request: { url: 'http://x.test/run' } });
    expect((formToRequest(form({})) as { request: object }).request).not.toHaveProperty('acceptAnyContentType');
    const ticked = form({ anyContentType: true });
    expect(formToRequest(ticked)).toMatchObject({ ok: true, request: { acceptAnyContentType: true } });
    expect(deserializeForm(serializeForm(ticked))?.anyContentType).toBe(true);
    const template = formToTemplate(ticked);
    expect(template).toMatchObject({ ok: true, template: { acceptAnyContentType: true } });
    if (template.ok) expect(formFromRequest(template.template).anyContentType).toBe(true);
    // A form stored before the choice existed, or with a value that is no boolean, does not tick it.
    const stored = JSON.parse(serializeForm(ticked)) as { form: Record<string, unknown> };
    stored.form['anyContentType'] = 'yes';
    expect(deserializeForm(JSON.stringify(stored))?.anyContentType).toBe(false);
  });

  it.each([null, '', 'not json', '{"version":2,"form":{}}', '{"version":1}'])(
    'ignores an unusable stored form: %j',
    (text) => {
      expect(deserializeForm(text)).toBeNull();
    },
  );
});
