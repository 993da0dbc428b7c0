import { describe, expect, test } from 'vitest';
import type { AgentInfoPayload, BlockSummary } from '../../src-shared/contract';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../src-main/testing/fixtures';
import { sessionPayloads } from './blocks-testing';
import {
  ancestorsOf,
  buildThreads,
  MAX_THREAD_NESTING,
  countLiveBlocks,
  findThread,
  spawnedAgentOf,
  type AgentThread,
} from './threads';

function decoded(name: string): { agents: AgentInfoPayload[]; blocks: BlockSummary[] } {
  return sessionPayloads(decodeBytes(readFixture(name)));
}

/** A compact picture of a thread: block ids as `kind#id`, nested agents as `[uuid8 …]`. */
function outline(thread: AgentThread): string {
  const parts = thread.items.map((item) =>
    item.type === 'block'
      ? `${item.block.kind}#${item.block.id}`
      : `[${item.thread.uuid.slice(0, 4)} ${outline(item.thread)}]`,
  );
  return parts.join(' ');
}

let nextId = 0;
function block(agent: string, kind: string, firstEnvelope: number, extra: Partial<BlockSummary> = {}): BlockSummary {
  const id = extra.id ?? nextId++;
  return {
    id,
    agent,
    kind,
    status: 'complete',
    length: 0,
    preview: '',
    citations: 0,
    images: 0,
    firstEnvelope,
    lastEnvelope: firstEnvelope,
    envelopeCount: 1,
    leg: 0,
    byteStart: 0,
    byteEnd: 0,
    ...extra,
  };
}

function agent(uuid: string, parent: string | null, firstEnvelope: number): AgentInfoPayload {
  return { uuid, parent, firstEnvelope };
}

describe('buildThreads on real streams', () => {
  test('multi_agent.json: both children nest under the spawn_subagent calls that started them', () => {
    const { agents, blocks } = decoded('multi_agent.json.sse');
    const threads = buildThreads(agents, blocks);
    expect(threads).toHaveLength(1);
    const root = threads[0] as AgentThread;
    expect(root.uuid.startsWith('2222')).toBe(true);
    expect(outline(root)).toBe(
      'meta_init#0 text#1 tool_call#2 [3333 meta_init#4 text#6 tool_call#8 tool_result#9 tool_call#10 tool_result#11 text#12] ' +
        'tool_call#3 [4444 meta_init#5 thinking#7 text#13 server_tool_call#15 server_tool_call#16 server_tool_call#17 text#18 meta_files#19] ' +
        'tool_result#14 tool_result#20 text#21 meta_final#22',
    );
    const children = root.items.flatMap((i) => (i.type === 'agent' ? [i.thread] : []));
    expect(children.map((c) => [c.depth, c.spawnedBy])).toEqual([
      [1, 2],
      [1, 3],
    ]);
    const child = '44444444-4444-4444-8444-444444444444';
    expect(findThread(threads, child).map((t) => t.uuid)).toEqual([child]);
    expect(ancestorsOf(threads, child)).toEqual([root.uuid, child]);
    expect(findThread(threads, 'nobody')).toEqual([]);
    expect(ancestorsOf(threads, 'nobody')).toEqual([]);
    expect(countLiveBlocks(threads)).toBe(0);
  });

  test('multi_agent.xml: unattributed output stays in one root thread', () => {
    const { agents, blocks } = decoded('multi_agent.xml.sse');
    const threads = buildThreads(agents, blocks);
    const ids = (t: AgentThread): number[] =>
      t.items.flatMap((i) => (i.type === 'block' ? [i.block.id] : ids(i.thread)));
    const shown = threads.flatMap(ids);
    expect(shown.sort((a, b) => a - b)).toEqual(blocks.map((b) => b.id).sort((a, b) => a - b));
  });
});

describe('buildThreads on a stream-controlled depth', () => {
  test('a chain of 20,000 nested sub-agents builds, finds and counts without recursion, in linear time', () => {
    const depth = 20_000;
    const agents = Array.from({ length: depth }, (_, i) => agent(`a${i}`, i === 0 ? null : `a${i - 1}`, i));
    const blocks = agents.map((a, i) =>
      block(a.uuid, 'text', i, { id: i, status: i === depth - 1 ? 'open' : 'complete' }),
    );
    const threads = buildThreads(agents, blocks);
    expect(threads).toHaveLength(1);
    const deepest = findThread(threads, `a${depth - 1}`)[0];
    expect(deepest?.depth).toBe(depth - 1);
    // The threads that hold it on screen (expanded to show it): the nesting stops at MAX_THREAD_NESTING.
    const path = ancestorsOf(threads, `a${depth - 1}`);
    expect(path).toEqual([...Array.from({ length: MAX_THREAD_NESTING + 1 }, (_, i) => `a${i}`), `a${depth - 1}`]);
    expect(countLiveBlocks(threads)).toBe(1);
    // On screen the nesting stops at MAX_THREAD_NESTING: deeper threads are listed in order inside that one.
    let nesting = 0;
    for (
      let level: AgentThread[] = threads;
      level.length > 0;
      level = level.flatMap((t) => t.items.flatMap((i) => (i.type === 'agent' ? [i.thread] : [])))
    )
      nesting++;
    expect(nesting).toBe(MAX_THREAD_NESTING + 2);
    const capped = findThread(threads, `a${MAX_THREAD_NESTING}`)[0];
    expect(
      capped?.items
        .filter((i) => i.type === 'agent')
        .map((i) => (i.type === 'agent' ? i.thread.depth : -1))
        .slice(0, 3),
    ).toEqual([MAX_THREAD_NESTING + 1, MAX_THREAD_NESTING + 2, MAX_THREAD_NESTING + 3]);
  });
});

describe('buildThreads placement', () => {
  test('a spawn result naming the child wins over call order', () => {
    const blocks = [
      block('P', 'tool_call', 1, { id: 0, name: 'spawn_subagent' }),
      block('P', 'tool_call', 2, { id: 1, name: 'spawn_subagent' }),
      block('A', 'text', 3, { id: 2 }),
      block('B', 'text', 4, { id: 3 }),
      // The second call's result names A: A was spawned by block 1.
      block('P', 'tool_result', 5, {
        id: 4,
        name: 'spawn_subagent',
        linkedBlock: 1,
        preview: "[Subagent 'a' completed]\\nAgent UUID: AAAAAAAA-1",
      }),
    ];
    const agents = [agent('P', null, 0), agent('AAAAAAAA-1', 'P', 3), agent('B', 'P', 4)];
    blocks[2] = { ...(blocks[2] as BlockSummary), agent: 'AAAAAAAA-1' };
    const [root] = buildThreads(agents, blocks);
    expect(root && outline(root)).toBe('tool_call#0 [B text#3] tool_call#1 [AAAA text#2] tool_result#4');
  });

  test('without a spawn call a child is placed where it started', () => {
    const blocks = [
      block('P', 'text', 1, { id: 0 }),
      block('C', 'text', 5, { id: 1 }),
      block('P', 'text', 9, { id: 2 }),
    ];
    const [root] = buildThreads([agent('P', null, 0), agent('C', 'P', 4)], blocks);
    expect(root && outline(root)).toBe('text#0 [C text#1] text#2');
  });

  test('a child that starts before any parent block comes first', () => {
    const blocks = [block('C', 'text', 1, { id: 0 }), block('P', 'text', 9, { id: 1 })];
    const [root] = buildThreads([agent('P', null, 5), agent('C', 'P', 0)], blocks);
    expect(root && outline(root)).toBe('[C text#0] text#1');
  });

  test('a parent cycle does not loop: the agents become roots', () => {
    const threads = buildThreads(
      [agent('A', 'B', 0), agent('B', 'A', 1)],
      [block('A', 'text', 0, { id: 0 }), block('B', 'text', 1, { id: 1 })],
    );
    expect(threads.map((t) => t.uuid)).toEqual(['A', 'B']);
  });

  test('an unknown parent ("unknown") makes a root; agents seen only in blocks get a thread', () => {
    const threads = buildThreads(
      [agent('A', 'unknown', 0)],
      [block('A', 'text', 0, { id: 0 }), block('X', 'text', 1, { id: 1 })],
    );
    expect(threads.map((t) => [t.uuid, t.info?.uuid ?? null])).toEqual([
      ['A', 'A'],
      ['X', null],
    ]);
  });

  test('holes in the block array are skipped and live blocks counted', () => {
    const [root] = buildThreads(
      [agent('A', null, 0)],
      [undefined, block('A', 'text', 3, { id: 1, status: 'open' }), undefined],
    );
    expect(root?.items).toHaveLength(1);
    expect(root?.liveBlocks).toBe(1);
    const nested = buildThreads(
      [agent('A', null, 0), agent('C', 'A', 1)],
      [block('A', 'text', 0, { id: 0 }), block('C', 'text', 1, { id: 1, status: 'open' })],
    );
    expect(countLiveBlocks(nested)).toBe(1);
  });
});

describe('spawned agents', () => {
  test('spawnedAgentOf reads the uuid from a spawn_subagent result preview only', () => {
    const result = {
      kind: 'tool_result',
      name: 'spawn_subagent',
      preview: "[Subagent 'c' completed]\\nAgent UUID: 33333333-3333-4333-8333-333333333333\\n\\nThe answer",
    };
    expect(spawnedAgentOf(result)).toBe('33333333-3333-4333-8333-333333333333');
    expect(spawnedAgentOf({ ...result, name: 'other' })).toBeUndefined();
    expect(spawnedAgentOf({ ...result, preview: "Subagent 'c' error: ValueError" })).toBeUndefined();
  });
});
