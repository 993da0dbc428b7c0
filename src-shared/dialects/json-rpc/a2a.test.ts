import { describe, expect, it, test } from 'vitest';
import { readA2aResult } from './a2a';
import { decodeEvents, rawEvent } from './test-events';

const response = (result: Record<string, unknown>, id: unknown = 1): string =>
  rawEvent(JSON.stringify({ jsonrpc: '2.0', id, result }));

const say = (text: string) => ({ role: 'agent', parts: [{ kind: 'text', text }] });

describe('A2A results, whatever shape sent them', () => {
  test.each([
    [
      'the kind discriminator (0.2–0.3)',
      {
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: { state: 'input-required', message: say('When?') },
        final: true,
      },
    ],
    [
      'the member that names the event (1.0)',
      {
        statusUpdate: {
          taskId: 't',
          contextId: 'c',
          status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { role: 'ROLE_AGENT', parts: [{ text: 'When?' }] } },
        },
      },
    ],
    [
      'the first drafts (0.1: `id`, `sessionId`, parts by `type`)',
      {
        id: 't',
        sessionId: 'c',
        status: { state: 'input-required', message: { role: 'agent', parts: [{ type: 'text', text: 'When?' }] } },
        final: true,
      },
    ],
  ])('a status update in %s', (_name, result) => {
    const event = readA2aResult(result);
    expect(event).toMatchObject({ kind: 'status-update', taskId: 't', contextId: 'c', state: 'input-required' });
    expect(event?.kind === 'status-update' ? event.statusMessage : undefined).toEqual({
      role: 'agent',
      parts: [{ kind: 'text', text: 'When?', label: '', value: expect.anything() as unknown }],
    });
  });

  it('a state outside the spec is kept as sent, not respelled (only 1.0 TASK_STATE_ names are read)', () => {
    const state = (value: string) => {
      const event = readA2aResult({ kind: 'status-update', taskId: 't', status: { state: value }, final: true });
      return event?.kind === 'status-update' ? event.state : undefined;
    };
    expect(state('tool_calls')).toBe('tool_calls');
    expect(state('TASK_STATE_AUTH_REQUIRED')).toBe('auth-required');
    expect(state('working')).toBe('working');
  });

  test.each([
    [
      '0.3',
      {
        kind: 'artifact-update',
        taskId: 't',
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
        append: true,
        lastChunk: true,
      },
      'a',
    ],
    [
      '1.0',
      {
        artifactUpdate: {
          taskId: 't',
          artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
          append: true,
          lastChunk: true,
        },
      },
      'a',
    ],
    [
      '0.1 (append and lastChunk inside the artifact, by index)',
      { id: 't', artifact: { index: 0, parts: [{ type: 'text', text: 'x' }], append: true, lastChunk: true } },
      '#0',
    ],
  ])('an artifact chunk in %s', (_name, result, key) => {
    expect(readA2aResult(result)).toMatchObject({
      kind: 'artifact-update',
      taskId: 't',
      artifact: { key, parts: [{ kind: 'text', text: 'x' }] },
      append: true,
      lastChunk: true,
    });
  });

  it('parts: text, files (0.x nested, 1.0 raw or url), data, and what no version names', () => {
    const event = readA2aResult({
      kind: 'message',
      role: 'agent',
      parts: [
        { kind: 'text', text: 'hi' },
        { kind: 'file', file: { name: 'a.png', mimeType: 'image/png', bytes: 'AAAA' } },
        { url: 'https://example.com/b.pdf', filename: 'b.pdf', mediaType: 'application/pdf' },
        { kind: 'data', data: { n: 1 } },
        { kind: 'hologram' },
      ],
    });
    expect(event?.kind === 'message' ? event.message.parts.map((p) => [p.kind, p.label]) : []).toEqual([
      ['text', ''],
      ['file', 'a.png'],
      ['file', 'b.pdf'],
      ['data', ''],
      ['other', 'hologram'],
    ]);
  });

  test.each([
    ['an MCP tool result', { content: [{ type: 'text', text: 'x' }] }],
    ['an MCP 2025-11-25 task (its status a string)', { task: { taskId: 't', status: 'working' } }],
    ['an initialize result', { protocolVersion: '2025-06-18', serverInfo: { name: 's' } }],
    ['an unknown kind', { kind: 'weather-report' }],
    ['a list', ['task']],
  ])('no A2A event: %s', (_name, result) => {
    expect(readA2aResult(result)).toBeUndefined();
  });
});

describe('an A2A stream onto the unified surface and blocks', () => {
  const lifecycle = [
    response({ kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted' } }),
    response({
      kind: 'status-update',
      taskId: 't1',
      status: { state: 'working', message: say('On it.') },
      final: false,
    }),
    response({
      kind: 'artifact-update',
      taskId: 't1',
      artifact: { artifactId: 'a', name: 'plan.md', parts: [{ kind: 'text', text: 'Day 1, ' }] },
    }),
    response({
      kind: 'artifact-update',
      taskId: 't1',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'day 2.' }] },
      append: true,
      lastChunk: true,
    }),
    response({
      kind: 'artifact-update',
      taskId: 't1',
      artifact: { artifactId: 'b', name: 'cost.json', parts: [{ kind: 'data', data: { eur: 40 } }] },
      lastChunk: true,
    }),
    response({ kind: 'status-update', taskId: 't1', status: { state: 'completed' }, final: true }),
  ];

  it("the task's lifecycle is message start, deltas and stop with the state as phase; the summary lists the states", () => {
    const { envelopes, blocks } = decodeEvents(lifecycle);
    expect(
      envelopes.filter((e) => e.control === 'provider-event').map((e) => [e.type, e.unified?.family, e.unified?.phase]),
    ).toEqual([
      ['task', 'stream.message_start', 'submitted'],
      ['status-update', 'stream.message_delta', 'working'],
      ['status-update', 'stream.message_stop', 'completed'],
    ]);
    expect(JSON.parse(blocks.at(-1)?.content ?? '')).toMatchObject({
      id: 't1',
      status: 'completed',
      stop_reason: 'completed',
      protocol: 'a2a',
      task_id: 't1',
      context_id: 'c1',
      states: ['submitted', 'working', 'completed'],
    });
  });

  it('artifacts stream as text blocks named after them, chunk by chunk; other parts are blocks of their kind', () => {
    const { blocks, envelopes } = decodeEvents(lifecycle);
    expect(blocks.map((b) => [b.kind, b.name ?? '', b.content])).toEqual([
      ['text', 'working', 'On it.'],
      ['text', 'plan.md', 'Day 1, day 2.'],
      ['data', 'cost.json', '{"eur":40}'],
      ['message', '', expect.any(String) as string],
    ]);
    expect(envelopes.filter((e) => e.unified?.ids.item_id === 'a').map((e) => e.unified?.family)).toEqual([
      'stream.content_block_start',
      'stream.content_block_delta',
      'stream.content_block_delta',
      'stream.content_block_stop',
    ]);
  });

  it('a status message between two chunks of an artifact closes its block; the artifact goes on in the next, nothing mixed', () => {
    const { blocks } = decodeEvents([
      response({
        kind: 'artifact-update',
        taskId: 't',
        artifact: { artifactId: 'a', name: 'plan.md', parts: [{ kind: 'text', text: 'one ' }] },
      }),
      response({
        kind: 'status-update',
        taskId: 't',
        status: { state: 'working', message: say('still working') },
        final: false,
      }),
      response({
        kind: 'artifact-update',
        taskId: 't',
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'two' }] },
        append: true,
        lastChunk: true,
      }),
      response({ kind: 'status-update', taskId: 't', status: { state: 'completed' }, final: true }),
    ]);
    expect(blocks.filter((b) => b.kind === 'text').map((b) => [b.name, b.content, b.status])).toEqual([
      ['plan.md', 'one ', 'complete'],
      ['working', 'still working', 'complete'],
      ['plan.md', 'two', 'complete'],
    ]);
  });

  it('A2A 1.0: no final member, the terminal state ends the stream', () => {
    const { diagnostics, ends } = decodeEvents([
      response({ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } }),
      response({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } }),
    ]);
    expect(diagnostics).toEqual([]);
    expect(ends[0]?.stream.terminal?.event).toBe('status-update (completed)');
  });

  it('a Message answering the request before any task is the whole answer; after a task it is one more message', () => {
    const direct = decodeEvents([
      response({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'Hello' }] }),
    ]);
    expect(direct.ends[0]?.stream.terminal?.event).toBe('message');
    const inTask = decodeEvents([
      response({ kind: 'task', id: 't', status: { state: 'working' } }),
      response({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'Hello' }] }),
    ]);
    expect(inTask.ends[0]?.stream.terminal).toBeNull();
  });

  it('a task already finished (a resubscription to it) is all the stream sends: its artifacts are blocks', () => {
    const { blocks, ends, diagnostics } = decodeEvents([
      response({
        kind: 'task',
        id: 't',
        status: { state: 'completed' },
        artifacts: [{ artifactId: 'a', name: 'joke', parts: [{ kind: 'text', text: 'Why did the chicken…' }] }],
      }),
    ]);
    expect(diagnostics).toEqual([]);
    expect(ends[0]?.stream.terminal?.event).toBe('task (completed)');
    expect(blocks.map((b) => [b.kind, b.name ?? '', b.content.slice(0, 12)])).toEqual([
      ['text', 'joke', 'Why did the '],
      ['message', '', '{"id":"t","s'],
    ]);
  });
});
