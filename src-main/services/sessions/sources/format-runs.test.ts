import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../testing/fixtures';
import { buildRequest } from '../../connection/request-spec';
import { startDemoAgent, type DemoAgent } from '../../demo-agent/index';
import { demoAgentInfo } from '../demo-agent-info';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { requestInFormat } from './format-runs';
import { settled } from '../service-testing';
import type { SessionService } from '../session-service';

describe('requestInFormat', () => {
  const built = (
    url: string,
    body: string | null,
    headers: [string, string][] = [['Authorization', 'Bearer secret']],
  ) =>
    buildRequest({
      url,
      method: 'POST',
      headers,
      ...(body !== null ? { body: { kind: 'json' as const, text: body } } : {}),
    });

  it('sets the format in the JSON body, keeping every other field, header and setting', () => {
    const request = requestInFormat(
      built('http://127.0.0.1:9/agent/run', '{"user_prompt":"hi","format":"json","scenario":"tour"}'),
      'xml',
      { inline: { mode: 'off', tools: [] } },
    );
    expect(JSON.parse(request.body!.text)).toEqual({ user_prompt: 'hi', format: 'xml', scenario: 'tour' });
    expect(request).toMatchObject({
      url: 'http://127.0.0.1:9/agent/run',
      method: 'POST',
      inline: { mode: 'off', tools: [] },
    });
    // The real headers (main's, never the redacted ones shown to the renderer), Content-Type included.
    expect(request.headers).toEqual([
      ['Authorization', 'Bearer secret'],
      ['Content-Type', 'application/json'],
    ]);
  });

  it('adds the field to a body that had none', () => {
    expect(JSON.parse(requestInFormat(built('http://h/agent/run', '{"user_prompt":"hi"}'), 'json').body!.text)).toEqual(
      { user_prompt: 'hi', format: 'json' },
    );
  });

  it('sets it in the query where the original request asked there (the query wins at the demo agent)', () => {
    const request = requestInFormat(built('http://h/agent/run?format=json&x=1', '{"user_prompt":"hi"}'), 'xml');
    expect(request.url).toBe('http://h/agent/run?format=xml&x=1');
    expect(JSON.parse(request.body!.text)).toEqual({ user_prompt: 'hi' });
  });

  it('refuses a request with no place for the format, saying why', () => {
    expect(() => requestInFormat(built('http://h/agent/run', null), 'xml')).toThrow(
      /no JSON object body and no \?format=/,
    );
    expect(() => requestInFormat(built('http://h/agent/run', '[1, 2]'), 'xml')).toThrow(/no JSON object body/);
  });
});

describe('runInFormats', () => {
  let service: SessionService;
  let agent: DemoAgent;
  beforeEach(async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    service = createDefaultSessionService({ demoAgent: () => demoAgentInfo(agent.url) });
  });
  afterEach(async () => {
    await service.dispose();
    await agent.close();
  });

  it('runs the demo agent’s scenario again in xml and in json; the two runs diff as the same conversation', async () => {
    const { id } = await service.connect({
      url: `${agent.url}/agent/run`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario: 'tour', format: 'json' }) },
    });
    await settled(service, id);
    const [xml, json] = await service.runInFormats({ sessionId: id, formats: ['xml', 'json'] });
    const [a, b] = await Promise.all([settled(service, xml!.id), settled(service, json!.id)]);
    expect([a.title, b.title]).toEqual(['Demo agent: Tour · xml', 'Demo agent: Tour · json']);
    expect([a.format, b.format, a.end?.kind, b.end?.kind]).toEqual(['xml', 'json', 'done', 'done']);
    const { diff } = await service.diffSessions({ left: xml!.id, right: json!.id });
    expect(diff.rows.length).toBeGreaterThan(5);
    expect(diff.rows.filter((row) => row.status === 'changed' && row.inherent === undefined)).toEqual([]);
  });

  it('refuses a provider API stream: it has one format only', async () => {
    const { id } = await service.connect({
      url: `${agent.url}/v1/messages?pace=fast`,
      method: 'POST',
      headers: [['anthropic-version', '2023-06-01']],
      body: { kind: 'json', text: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, stream: true }) },
    });
    expect((await settled(service, id)).format).toBe('anthropic-messages');
    await expect(service.runInFormats({ sessionId: id, formats: ['xml', 'json'] })).rejects.toThrow(
      /anthropic-messages stream, which has one format only/,
    );
    expect((await service.listSessions()).length).toBe(1);
  });

  it('refuses a session that was not connected to an agent', async () => {
    const { id } = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    await settled(service, id);
    await expect(service.runInFormats({ sessionId: id, formats: ['xml', 'json'] })).rejects.toThrow(
      /was not connected to an agent/,
    );
    expect((await service.listSessions()).length).toBe(1);
  });
});
