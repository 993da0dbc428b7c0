import { describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../../../src-shared/reconstruct/types';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../../testing/fixtures';
import { BatchTracker } from './batch-tracker';
import { BlockContents } from './block-contents';
import { BlockEnvelopes } from './block-envelopes';
import { BlockIndex } from './block-index';
import { chunkChanges, decoderInto } from './decoder-wiring';
import { DiagnosticStore } from './diagnostic-store';
import { EnvelopeTable, FrameTable } from './envelope-table';
import { FindingBadges } from './finding-badges';
import type { LegState } from './leg-state';
import { createRawChunks } from './raw-chunks';
import { SpoolFile } from './spool-file';

describe('decoderInto', () => {
  it("writes what the decoder finds into the store's indexes, reporting each change", () => {
    const legs: LegState[] = [];
    const envelopes = new EnvelopeTable((leg) => legs[leg]?.frames, new SpoolFile());
    const batch = new BatchTracker();
    const firstEnvelope = (leg: number, frame: number) => legs[leg]?.frames.firstEnvelope(frame) ?? -1;
    const findings = new FindingBadges(new DiagnosticStore(new SpoolFile()), firstEnvelope, (seq) =>
      batch.touchRow(seq),
    );
    const blocks = new BlockIndex(envelopes, new BlockContents(envelopes), new BlockEnvelopes(envelopes), (seq) =>
      batch.touchRow(seq),
    );
    const agents = new Map<string, AgentInfo>();
    let changes = 0;
    const decoder = decoderInto({ legs, envelopes, blocks, agents, findings, batch }, () => (changes += 1), {});
    const legDecoder = decoder.startLeg();
    legs.push({
      index: 0,
      kind: 'file',
      request: null,
      response: null,
      startedAt: 0,
      raw: createRawChunks(new SpoolFile()),
      rejected: createRawChunks(),
      frames: new FrameTable(),
      format: null,
      detection: null,
      lastEventId: '',
      retry: null,
      decoder: legDecoder,
      firstEnvelope: 0,
      contentEnvelopes: 0,
    });
    const bytes = readFixture('example_1.json.sse');
    legDecoder.push(bytes, 0);
    legDecoder.end();
    decoder.finish();
    const expected = decodeBytes(bytes);
    expect(envelopes.count).toBe(expected.envelopes.length);
    expect(legs[0]?.frames.count).toBe(expected.frames[0]?.length);
    expect(blocks.revision).toBeGreaterThan(0);
    expect([...agents.keys()].sort()).toEqual(expected.agents.map((a) => a.uuid).sort());
    expect(findings.count).toBe(expected.diagnostics.length);
    expect(changes).toBeGreaterThanOrEqual(envelopes.count);
  });
});

describe('chunkChanges', () => {
  it('reports the changes made while a chunk decodes once, after it; changes outside a chunk at once', () => {
    let notified = 0;
    const changes = chunkChanges(() => (notified += 1));
    changes.decoding(() => {
      for (let i = 0; i < 100; i++) changes.changed();
      expect(notified).toBe(0);
    });
    expect(notified).toBe(1);
    // A chunk that changed nothing (half an event) reports nothing.
    changes.decoding(() => {});
    expect(notified).toBe(1);
    changes.changed();
    expect(notified).toBe(2);
  });

  it('reports what a chunk changed before its decoding threw (a spool write failed), and lets the error through', () => {
    let notified = 0;
    const changes = chunkChanges(() => (notified += 1));
    expect(() =>
      changes.decoding(() => {
        changes.changed();
        throw new Error('ENOSPC');
      }),
    ).toThrow('ENOSPC');
    expect(notified).toBe(1);
    // The next chunk is reported on its own.
    changes.decoding(() => changes.changed());
    expect(notified).toBe(2);
  });
});
