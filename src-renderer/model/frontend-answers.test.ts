import { describe, expect, it } from 'vitest';
import type { LegInfo } from '../../src-shared/contract';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../src-main/testing/fixtures';
import { readProviderFixture } from '../../src-main/testing/provider-streams';
import { sessionPayloads } from './blocks-testing';
import { frontendAnswers } from './frontend-answers';

const leg = (n: number, kind: LegInfo['kind']): LegInfo => ({
  leg: n,
  kind,
  request: null,
  response: null,
  startedAt: 0,
  bytes: 0,
  chunks: 0,
  frames: 0,
  format: null,
});

describe.each([
  ['upstream json', () => readFixture('frontend_tools.json.sse')],
  ['AI SDK UI message stream', () => readProviderFixture('ai-sdk-ui/client-tool.sse')],
  ['AI SDK v4 data stream', () => readProviderFixture('ai-sdk-ui/client-tool.txt')],
  ['AG-UI', () => readProviderFixture('ag-ui/frontend-tool.sse')],
])('%s: a run that pauses for a client-side tool', (_name, bytes) => {
  const { blocks } = sessionPayloads(decodeBytes(bytes()));
  const awaited = blocks.flatMap((b) => b.pendingTools ?? []).map((t) => t.toolUseId);

  it('has awaited calls, each of them a tool call block without a linked result', () => {
    expect(awaited.length).toBeGreaterThan(0);
    for (const id of awaited) {
      const call = blocks.find((b) => b.toolId === id && b.kind === 'tool_call');
      expect(call?.linkedBlock).toBeUndefined();
    }
  });

  it('its calls await the frontend while no continuation follows (a reconnect is none)', () => {
    const answers = frontendAnswers(blocks, [leg(0, 'run'), leg(1, 'reconnect')]);
    expect([...answers]).toEqual(awaited.map((id) => [id, { leg: null, approval: false }]));
  });

  it('the first continuation after the pause carried their results', () => {
    const answers = frontendAnswers(blocks, [
      leg(0, 'run'),
      leg(1, 'reconnect'),
      leg(2, 'tool-results'),
      leg(3, 'tool-results'),
    ]);
    expect([...answers]).toEqual(awaited.map((id) => [id, { leg: 2, approval: false }]));
  });
});

it('a call that waited for its approval had an approval sent', () => {
  const { blocks } = sessionPayloads(decodeBytes(readProviderFixture('ai-sdk-ui/tool-approval.sse')));
  expect([...frontendAnswers(blocks, [leg(0, 'run'), leg(1, 'tool-results')])]).toEqual([
    ['call_delete', { leg: 1, approval: true }],
  ]);
});

it('a run that pauses for nothing has no frontend answers', () => {
  const { blocks } = sessionPayloads(decodeBytes(readFixture('example_1.json.sse')));
  expect(frontendAnswers(blocks, [leg(0, 'run'), leg(1, 'tool-results')]).size).toBe(0);
});
