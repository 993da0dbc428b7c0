import { describe, expect, it } from 'vitest';
import { createAnswerLedger } from './answer-ledger';
import {
  buildToolResultsBody,
  buildToolResultsRequest,
  checkResults,
  continuationHeaders,
  defaultExtraBody,
  toolResultsUrl,
} from './tool-results';

describe('where tool results go', () => {
  it.each([
    ['http://127.0.0.1:8000/agent/run', 'http://127.0.0.1:8000/agent/tool_results'],
    ['http://h/api/v1/agent/run?format=xml', 'http://h/api/v1/agent/tool_results?format=xml'],
    ['http://h/agent/run/multipart', 'http://h/agent/tool_results'],
    ['https://h/custom/stream#x', 'https://h/agent/tool_results'],
  ])('derives the endpoint from the run URL %s', (run, expected) => {
    expect(toolResultsUrl(run).href).toBe(expected);
  });

  it('keeps an explicit path on the run origin and refuses anything else', () => {
    expect(toolResultsUrl('http://h:1/agent/run', '/v2/results?x=1').href).toBe('http://h:1/v2/results?x=1');
    expect(() => toolResultsUrl('http://h/agent/run', '//evil.example/x')).toThrow(/single \//);
    expect(() => toolResultsUrl('http://h/agent/run', 'https://evil.example/x')).toThrow(/single \//);
  });
});

describe('what is sent', () => {
  it('builds the upstream body with agent_uuid and tool_results that extra fields cannot replace', () => {
    const body = buildToolResultsBody(
      'uuid-1',
      [
        { tool_use_id: 't1', content: 'yes' },
        { tool_use_id: 't2', content: 'boom', is_error: true },
      ],
      {
        agent_type: 'agent_frontend_tools',
        agent_uuid: 'other',
        tool_results: [],
      },
    );
    expect(JSON.parse(body)).toEqual({
      agent_uuid: 'uuid-1',
      tool_results: [
        { tool_use_id: 't1', content: 'yes', is_error: false },
        { tool_use_id: 't2', content: 'boom', is_error: true },
      ],
      agent_type: 'agent_frontend_tools',
    });
  });

  it('carries agent_type and format over from the run body, and nothing else', () => {
    expect(defaultExtraBody('{"user_prompt":"x","agent_type":"agent_all_json","format":"xml","api_key":"k"}')).toEqual({
      agent_type: 'agent_all_json',
      format: 'xml',
    });
    expect(defaultExtraBody('not json')).toEqual({});
    expect(defaultExtraBody(null)).toEqual({});
  });

  it('reuses the run headers (credentials included) but describes its own body', () => {
    expect(
      continuationHeaders([
        ['Authorization', 'Bearer t'],
        ['content-type', 'text/plain'],
        ['Content-Length', '9'],
        ['Last-Event-ID', '4'],
        ['X-Trace', 'a'],
      ]),
    ).toEqual([
      ['Authorization', 'Bearer t'],
      ['X-Trace', 'a'],
      ['Content-Type', 'application/json'],
    ]);
  });

  it('refuses to address results when the agent uuid is unknown', () => {
    expect(() =>
      buildToolResultsRequest({
        run: { method: 'POST', url: 'http://h/agent/run', headers: [], body: null },
        agentUuid: '',
        results: [],
      }),
    ).toThrow(/agent uuid of the paused run is unknown/);
  });
});

describe('checking results against the pending tools', () => {
  const pending = [
    { toolUseId: 'a', name: 'user_confirm', input: {} },
    { toolUseId: 'b', name: 'pick_file', input: {} },
  ];
  it('accepts exactly the pending set, in any order', () => {
    expect(
      checkResults(pending, [
        { tool_use_id: 'b', content: '' },
        { tool_use_id: 'a', content: 'yes' },
      ]),
    ).toBeNull();
  });
  it('names what is missing, unknown or repeated', () => {
    expect(
      checkResults(pending, [
        { tool_use_id: 'a', content: '' },
        { tool_use_id: 'a', content: '' },
        { tool_use_id: 'z', content: '' },
      ]),
    ).toBe(
      'The results do not match the pending tools: a is answered twice; z is not a pending tool; no result for pick_file (b).',
    );
  });
  it('takes an approval for a call that waits for one, and a result for any other', () => {
    const withApproval = [...pending, { toolUseId: 'c', name: 'delete_file', input: {}, approvalId: 'ap-1' }];
    expect(
      checkResults(withApproval, [
        { tool_use_id: 'a', content: 'yes' },
        { tool_use_id: 'b', content: '' },
        { tool_use_id: 'c', content: '', approved: false },
      ]),
    ).toBeNull();
    expect(
      checkResults(withApproval, [
        { tool_use_id: 'a', content: 'yes', approved: true },
        { tool_use_id: 'b', content: '' },
        { tool_use_id: 'c', content: 'done' },
      ]),
    ).toBe(
      'The results do not match the pending tools: user_confirm (a) waits for a result, not an approval; delete_file (c) waits for an approval (approve or deny), not a result.',
    );
  });
});

describe('the answer ledger', () => {
  it('lets a pending set be sent once, and again after a failure only when asked', () => {
    const ledger = createAnswerLedger();
    ledger.claim('0:5', {});
    expect(() => ledger.claim('0:5', {})).toThrow(/being sent already/);
    ledger.settle('0:5', 'failed', 'HTTP 422');
    expect(() => ledger.claim('0:5', {})).toThrow(/failed before \(HTTP 422\); confirm/);
    ledger.claim('0:5', { resend: true });
    ledger.settle('0:5', 'sent', 'the continuation is leg 1');
    expect(() => ledger.claim('0:5', { resend: true })).toThrow(/already sent \(the continuation is leg 1\)/);
    expect(ledger.state('1:9')).toBe('no');
  });
});
