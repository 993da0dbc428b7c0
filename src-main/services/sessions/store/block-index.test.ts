import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../testing/fixtures';
import { createSessionStore } from './session-store';

/** A file session of `bytes`, fed in one chunk; `end`: the leg ends and the session finishes. */
function sessionOf(bytes: Uint8Array, end = true) {
  const data = createSessionStore({
    id: 's',
    title: 't',
    source: { kind: 'file', path: '/x', importer: 'sse' },
    createdAt: 0,
  });
  const leg = data.openLeg('file', null, 0).index;
  data.push(leg, bytes, 0);
  if (end) {
    data.endLeg(leg, { reason: 'complete' });
    if (data.pendingTools() === null) data.finish();
  }
  return data;
}

describe('block index', () => {
  it("gives every content envelope of a block that block as its row's block", () => {
    const data = sessionOf(readFixture('example_1.json.sse'));
    for (const block of data.blocks()) for (const seq of block.envelopes) expect(data.row(seq)?.block).toBe(block.id);
  });

  it('reports the blocks changed after a revision, and none after the latest', () => {
    const data = sessionOf(readFixture('example_1.json.sse'));
    const all = data.blockChanges(0);
    expect(all.blocks.map((b) => b.id).sort((a, b) => a - b)).toEqual(data.blocks().map((b) => b.id));
    expect(data.blockChanges(all.revision)).toEqual({ revision: all.revision, blocks: [] });
  });

  it('finds the frontend tools a paused run waits for, and none while its leg is open', () => {
    const bytes = readFixture('frontend_tools.json.sse');
    expect(sessionOf(bytes, false).pendingTools()).toBeNull();
    const pending = sessionOf(bytes).pendingTools();
    expect(pending?.block.kind).toBe('awaiting_frontend_tools');
    expect(pending?.block.pendingTools?.length).toBeGreaterThan(0);
    expect(sessionOf(readFixture('example_1.json.sse')).pendingTools()).toBeNull();
  });
});
