import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { createReconstructor, MAX_BLOCK_CHARS, type ReconstructorOptions } from './reconstructor';
import { HELD_IDLE_AGENTS } from './retention';
import { A, B, plainEnvelope, session, tool } from './reconstructor-harness';

describe("'open' retention: closed blocks are counted, not kept", () => {
  it('holds only open blocks and calls waiting for their result, and counts every block', () => {
    const s = session({ retention: 'open' });
    for (let i = 0; i < 100; i++) s.text([`block ${i}`]);
    s.final('tool_call', '{}', tool('t1', 'search'));
    s.final('tool_call', '{}', tool('t2', 'search'));
    s.final('tool_result', 'ok', tool('t1', 'search'));
    s.push('thinking', 'still going');
    expect(s.blocks().map((b) => [b.id, b.kind])).toEqual([
      [101, 'tool_call'],
      [103, 'thinking'],
    ]);
    expect(s.r.counts()).toEqual({ blocks: 104, agents: 1 });
    s.r.end();
    expect(s.rules()).toEqual(['block.unterminated', 'tool.call-without-result']);
    expect(s.diagnostics.map((d) => d.at.block)).toEqual([103, 101]);
  });

  it('still links a repeated result to a call it has let go, and reports the same findings as `all`', () => {
    const run = (retention: 'all' | 'open') => {
      const s = session({ retention });
      s.final('tool_call', '{}', tool('t1', 'search'));
      s.final('tool_result', 'ok', tool('t1', 'search'));
      s.final('tool_result', 'again', { ...tool('t1', 'search'), agent: B });
      s.final('tool_call', '{}', tool('t1', 'search'));
      s.final('tool_result', 'late', tool('t9', 'search'));
      s.r.end();
      return s.rules();
    };
    // The repeated t1 result links; t9 has no call; the second t1 call (a new block after a final) gets no result.
    expect(run('open')).toEqual(['block.content-after-final', 'tool.result-without-call', 'tool.call-without-result']);
    expect(run('open')).toEqual(run('all'));
  });

  it('lets the least recently active idle agents go past its limit, never the root nor an agent with an open block', () => {
    const s = session({ retention: 'open' });
    s.text(['root'], A);
    s.push('thinking', 'open', { agent: B });
    const agents = HELD_IDLE_AGENTS * 3;
    for (let i = 0; i < agents; i++) s.text(['hi'], `sub-${i}`);
    const held = s.r.agents().map((a) => a.uuid);
    expect(held.length).toBeLessThanOrEqual(HELD_IDLE_AGENTS + 2);
    expect(held).toContain(A);
    expect(held).toContain(B);
    expect(held).toContain(`sub-${agents - 1}`);
    expect(held).not.toContain('sub-0');
    expect(s.r.rootAgent()).toBe(A);
    expect(s.r.counts()).toEqual({ blocks: agents + 2, agents: agents + 2 });
  });
});

describe('a block past the held-content cap', () => {
  it("keeps its first characters, counts the rest, and says so once: 'block.content-capped'", () => {
    const s = session({ maxBlockChars: 10 });
    s.push('text', 'abcdefgh');
    s.push('text', 'ijklmnop');
    s.push('text', 'qrstuvwx');
    s.r.end();
    const [block] = s.blocks();
    expect(block).toMatchObject({ content: 'abcdefghij', omittedChars: 14, envelopes: [0, 1, 2] });
    expect(s.rules()).toEqual(['block.content-capped', 'block.unterminated']);
    expect(s.diagnostics[0]?.message).toContain('passed 10 characters at envelope 1');
    expect(s.diagnostics[1]?.message).toContain('3 envelope(s) and 24 characters');
  });

  it('never splits a surrogate pair at the cap, and must not fire under it', () => {
    const s = session({ maxBlockChars: 10 });
    s.text(['abcdefghi😀']);
    expect(s.blocks()[0]).toMatchObject({ content: 'abcdefghi', omittedChars: 2 });
    const under = session({ maxBlockChars: 10 });
    under.text(['abcde', 'fghij']);
    expect(under.blocks()[0]?.omittedChars).toBeUndefined();
    expect(under.rules()).toEqual([]);
  });

  it('does not parse a buffered payload it cut', () => {
    const s = session({ maxBlockChars: 10 });
    s.push('tool_call', '{"query": "', tool('t1', 'search'));
    s.final('tool_call', 'a long search"}', tool('t1', 'search'));
    expect(s.rules()).toEqual(['block.content-capped']);
    expect(s.blocks()[0]?.status).toBe('complete');
  });

  it('holds at most MAX_BLOCK_CHARS of one endless block (was: "Invalid string length" past V8\'s longest string)', () => {
    const s = session();
    const delta = 'x'.repeat(8 * 1024 * 1024);
    // 96 Mi characters: past the cap, not yet V8's limit, so the test is quick and shows the cap holds.
    for (let i = 0; i < 12; i++) s.push('text', delta);
    expect(s.blocks()[0]?.content.length).toBe(MAX_BLOCK_CHARS);
    expect(s.blocks()[0]?.omittedChars).toBe(12 * delta.length - MAX_BLOCK_CHARS);
    expect(s.count('block.content-capped')).toBe(1);
  });
});

/**
 * How each block of the memory test closes: its final envelope, or the next block's first
 * envelope of another type (block.not-finalised). A block still open when the session ends
 * keeps its rope: its replay check still holds the delta strings, so a flat copy would only
 * add to them.
 */
const ENDINGS = [
  { ending: 'its final envelope', close: 'final', lastCloses: true },
  // The block of another type marks the text block; its next delta closes it: the last stays open.
  { ending: 'a block of another type', close: 'thinking', lastCloses: false },
] as const;

/** Heap bytes per delta the reconstructor holds after BLOCKS text blocks of DELTAS deltas of WIDTH characters, each closed by `close`. */
function heldPerDelta(close: (typeof ENDINGS)[number]['close']): number {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const heap = (): number => {
    collect();
    collect();
    return process.memoryUsage().heapUsed;
  };
  // No callback keeps anything (the harness keeps every block change's content).
  const r = createReconstructor({
    onBlock: () => undefined,
    onAgent: () => undefined,
    onDiagnostic: () => undefined,
  });
  let seq = 0;
  const push = (type: string, delta: string, final: boolean): void =>
    r.push(plainEnvelope(seq++, A, type, delta, final));
  const before = heap();
  for (let b = 0; b < BLOCKS; b++) {
    for (let d = 0; d < DELTAS; d++) push('text', `${b}/${d} `.padEnd(WIDTH, '.'), false);
    if (close === 'final') push('text', '', true);
    else push('thinking', 'x', true);
  }
  r.end();
  const perDelta = (heap() - before) / (BLOCKS * DELTAS);
  const texts = r.blocks().filter((b) => b.kind === 'text');
  expect(texts.map((b) => b.content.length)).toEqual(Array(BLOCKS).fill(DELTAS * WIDTH));
  return perDelta;
}
const [BLOCKS, DELTAS, WIDTH] = [40, 500, 40];

describe.each(ENDINGS)("'all' retention: a block closed by $ending keeps its text flat", ({ close, lastCloses }) => {
  it('holds its text in about a byte per character, not a node per delta', () => {
    // Flat: the delta's characters (a byte each) and its envelope's number in the block's
    // list, about 53 bytes here. Appended as it came, the text is a rope: a node and the
    // delta's own string per delta, about 134 bytes.
    expect(heldPerDelta(close)).toBeLessThan(WIDTH * 2);
  });

  it('is made flat by one read at its close, and not for a consumer that drops it (releasesClosedText)', () => {
    // Whether V8 keeps a rope is its own affair (a collection may flatten one too), so what is
    // checked is the read that makes the copy: one per block, or none.
    expect(closedTextReads(close)).toBe(lastCloses ? FEW_BLOCKS : FEW_BLOCKS - 1);
    expect(closedTextReads(close, { releasesClosedText: true })).toBe(0);
  });
});

const FEW_BLOCKS = 4;

/** Reads of a closed block's whole text (a character of it) while FEW_BLOCKS blocks stream and close. */
function closedTextReads(close: (typeof ENDINGS)[number]['close'], options: ReconstructorOptions = {}): number {
  const r = createReconstructor({}, options);
  let seq = 0;
  const push = (type: string, delta: string, final: boolean): void =>
    r.push(plainEnvelope(seq++, A, type, delta, final));
  const reads = vi.spyOn(String.prototype, 'charCodeAt');
  try {
    for (let b = 0; b < FEW_BLOCKS; b++) {
      for (let d = 0; d < DELTAS; d++) push('text', `${b}/${d} `.padEnd(WIDTH, '.'), false);
      if (close === 'final') push('text', '', true);
      else push('thinking', 'x', true);
    }
    return reads.mock.contexts.filter((text) => String(text).length === DELTAS * WIDTH).length;
  } finally {
    reads.mockRestore();
  }
}
