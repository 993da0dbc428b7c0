import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { externalFixturePath, listProviderFixtures, readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, readProviderFixture, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';

/** What a fixture must decode to: its end status, exactly its findings, and the kinds of its blocks. */
interface Expected {
  status: string;
  rules: string[];
  kinds: string[];
}

const DEMO: Record<string, Expected> = {
  'json-rpc/mcp-tools-call.sse': {
    status: 'done',
    rules: [],
    kinds: ['text', 'image', 'resource_link', 'text', 'structured_content', 'message'],
  },
  'json-rpc/mcp-initialize.sse': { status: 'done', rules: [], kinds: ['message'] },
  'json-rpc/mcp-tools-list.sse': { status: 'done', rules: [], kinds: ['message'] },
  'json-rpc/mcp-tool-error.sse': { status: 'done', rules: ['json-rpc.tool-error'], kinds: ['text', 'message'] },
  'json-rpc/mcp-rpc-error.sse': { status: 'ended by error', rules: ['json-rpc.error'], kinds: ['error', 'message'] },
  'json-rpc/mcp-server-request.sse': {
    status: 'done',
    // The client answers the request on a POST of its own: its answer is in no stream.
    rules: ['tool.call-without-result'],
    kinds: ['tool_call', 'text', 'message'],
  },
  'json-rpc/mcp-cut.sse': { status: 'truncated', rules: ['json-rpc.truncated'], kinds: ['message'] },
  'json-rpc/a2a-task.sse': { status: 'done', rules: [], kinds: ['text', 'text', 'data', 'message'] },
  'json-rpc/a2a-input-required.sse': { status: 'done', rules: [], kinds: ['text', 'text', 'message'] },
  'json-rpc/a2a-failed.sse': {
    status: 'ended by error',
    rules: ['json-rpc.task-failed'],
    kinds: ['text', 'text', 'text', 'message'],
  },
  'json-rpc/a2a-message.sse': { status: 'done', rules: [], kinds: ['text', 'message'] },
  'json-rpc/a2a-cut.sse': {
    status: 'truncated',
    rules: ['json-rpc.truncated', 'block.unterminated'],
    kinds: ['text', 'message'],
  },
};

const EXTERNAL: Record<string, Expected> = {
  'mcp-spec-tools-call.sse': {
    status: 'done',
    rules: ['tool.call-without-result'],
    kinds: ['tool_call', 'text', 'image', 'audio', 'resource_link', 'resource', 'message'],
  },
  'mcp-spec-structured-content.sse': { status: 'done', rules: [], kinds: ['text', 'structured_content', 'message'] },
  'mcp-spec-tool-error.sse': { status: 'done', rules: ['json-rpc.tool-error'], kinds: ['text', 'message'] },
  'mcp-spec-protocol-error.sse': { status: 'ended by error', rules: ['json-rpc.error'], kinds: ['error', 'message'] },
  'mcp-spec-sampling-request.sse': {
    status: 'ended',
    rules: ['json-rpc.no-response', 'tool.call-without-result'],
    kinds: ['tool_call'],
  },
  'a2a-spec-streaming-task.sse': { status: 'done', rules: [], kinds: ['text', 'message'] },
  'mcp-ts-sdk-get-notification.sse': { status: 'ended', rules: ['json-rpc.no-response'], kinds: [] },
  'mcp-ts-sdk-post-response.sse': { status: 'done', rules: [], kinds: ['message'] },
  'mcp-ts-sdk-priming-then-close.sse': { status: 'truncated', rules: ['json-rpc.resumable-end'], kinds: ['message'] },
  'mcp-ts-sdk-retry-then-close.sse': { status: 'truncated', rules: ['json-rpc.resumable-end'], kinds: ['message'] },
  // The test's stream is two working tasks: A2A 1.0 closes a stream at a terminal or interrupted state.
  'a2a-js-resubscribe-heartbeats.lf.sse': { status: 'truncated', rules: ['json-rpc.truncated'], kinds: ['message'] },
  'a2a-js-resubscribe-heartbeats.crlf.sse': { status: 'truncated', rules: ['json-rpc.truncated'], kinds: ['message'] },
  'a2a-js-resubscribe-heartbeats.cr.sse': { status: 'truncated', rules: ['json-rpc.truncated'], kinds: ['message'] },
};

const statusOf = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;

function expectDecoded(bytes: Uint8Array, expected: Expected): void {
  const [first, ...rest] = decodeEveryChunking(bytes);
  expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
  const result = decodeBytes(bytes);
  expect(result.formats).toEqual(['json-rpc']);
  expect(rulesOf(result)).toEqual(expected.rules);
  expect(statusOf(result)).toBe(expected.status);
  expect(result.blocks.map((b) => b.kind)).toEqual(expected.kinds);
}

describe('the demo agent scenarios (resources/fixtures/providers/json-rpc)', () => {
  test('every scenario has its expectations', () => {
    expect(listProviderFixtures().filter((f) => f.startsWith('json-rpc/'))).toEqual(Object.keys(DEMO).sort());
  });

  test.each(Object.entries(DEMO))(
    '%s: detected, decoded with exactly its findings and end status, the same at every chunking',
    (name, expected) => expectDecoded(readProviderFixture(name), expected),
  );
});

describe('specification examples and recorded streams (resources/fixtures/external/json-rpc)', () => {
  test('every file has its expectations', () => {
    const files = readdirSync(externalFixturePath('json-rpc')).filter((f) => f.endsWith('.sse'));
    expect(files.sort()).toEqual(Object.keys(EXTERNAL).sort());
  });

  test.each(Object.entries(EXTERNAL))(
    '%s: detected, decoded with exactly its findings and end status, the same at every chunking',
    (name, expected) => expectDecoded(readExternalFixture(`json-rpc/${name}`), expected),
  );

  test('the A2A specification example: the artifact is one text block of its three chunks, the task went submitted → completed', () => {
    const result = decodeBytes(readExternalFixture('json-rpc/a2a-spec-streaming-task.sse'));
    expect(result.blocks[0]?.content).toBe('<section 1...><section 2...><section 3...>');
    expect(JSON.parse(result.blocks[1]?.content ?? '')).toMatchObject({
      protocol: 'a2a',
      status: 'completed',
      task_id: '225d6247-06ba-4cda-a08b-33ae35c8dcfa',
      states: ['submitted', 'completed'],
    });
  });

  test('an exchange whose request the capture lacks is summed up with no id, not an empty one', () => {
    const result = decodeBytes(readExternalFixture('json-rpc/mcp-ts-sdk-priming-then-close.sse'));
    const summary = result.blocks.find((b) => b.kind === 'message');
    expect(JSON.parse(summary?.content ?? '')).toEqual({ status: 'cut' });
    expect(summary?.toolId).toBeUndefined();
    const answered = decodeBytes(readExternalFixture('json-rpc/mcp-ts-sdk-post-response.sse'));
    expect(JSON.parse(answered.blocks.find((b) => b.kind === 'message')?.content ?? '')).toHaveProperty('id');
  });

  test('a2a-js: the three line endings decode to the same envelopes, the UTF-8 context id intact', () => {
    const shapes = ['lf', 'crlf', 'cr'].map((ending) =>
      decodeBytes(readExternalFixture(`json-rpc/a2a-js-resubscribe-heartbeats.${ending}.sse`)).envelopes.map((e) => [
        e.type,
        e.delta,
        e.extras,
      ]),
    );
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    expect(JSON.stringify(shapes[0])).toContain('ctx-Україна-🌍');
  });
});

describe('the agent events are shown under', () => {
  const summaryOf = (result: DecodeResult): Record<string, unknown> =>
    JSON.parse(result.blocks.find((b) => b.kind === 'message')?.content ?? '{}') as Record<string, unknown>;

  test.each(Object.keys(DEMO).filter((name) => name.includes('/a2a-') && !name.endsWith('a2a-message.sse')))(
    '%s: every event under its task, one agent',
    (name) => {
      const result = decodeBytes(readProviderFixture(name));
      const task = summaryOf(result)['task_id'];
      expect(typeof task).toBe('string');
      expect([...new Set(result.envelopes.map((e) => e.agent))]).toEqual([task]);
    },
  );

  test.each([...Object.keys(DEMO).filter((name) => name.includes('/mcp-')), 'json-rpc/a2a-message.sse'])(
    '%s: no task, so no agent: every event unattributed',
    (name) => {
      const result = decodeBytes(readProviderFixture(name));
      expect([...new Set(result.envelopes.map((e) => e.agent))]).toEqual(['']);
    },
  );
});
