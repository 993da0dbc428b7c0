import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportKind, TaskProgress } from '../../../src-shared/contract/payloads';
import { createDefaultSessionService } from '../../hosts/default-service';
import { writeBigRecording } from '../recording/big-recording-testing';
import { settled } from './service-testing';

/** The progress the session service reports for a long export, to a file or as a download: what every host's bar shows. */
let dir: string;
let recording: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-export-progress-'));
  recording = join(dir, 'big.recording');
  await writeBigRecording(recording, 8 * 1024 * 1024);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function openBig() {
  const service = createDefaultSessionService({ statusIntervalMs: 10 });
  const { id } = await service.openFile({ path: recording });
  const loaded = await settled(service, id, 60_000);
  const events: TaskProgress[] = [];
  service.onProgress((p) => {
    if (p.task === 'export') events.push(p);
  });
  return { service, id, loaded, events };
}

describe('progress of exporting a big session', () => {
  it.each<ExportKind>(['envelopes-ndjson', 'raw-sse'])(
    '%s: ticks with the bytes written and the envelope rate, and ends once with every envelope',
    async (kind) => {
      const { service, id, loaded, events } = await openBig();
      try {
        const path = join(dir, `export-${kind}`);
        const saved = await service.exportSession({ sessionId: id, kind, path });
        const { size } = await stat(path);
        expect(saved?.bytes).toBe(size);
        expect(events.length).toBeGreaterThan(2);
        expect(events.every((p) => p.sessionId === id && p.envelopesTotal === loaded.envelopes)).toBe(true);
        expect(events.filter((p) => p.done)).toHaveLength(1);
        expect(events.at(-1)).toMatchObject({ done: true, decoded: size, received: size, envelopes: loaded.envelopes });
        // Ticks while it writes: part of the file, a rate measured, counts that only grow.
        const running = events.filter((p) => !p.done && p.decoded > 0 && p.decoded < size);
        expect(running.length).toBeGreaterThan(0);
        expect(running.every((p) => p.bytesPerSecond > 0)).toBe(true);
        expect(running.some((p) => p.envelopes > 0 && p.envelopes < loaded.envelopes && p.envelopesPerSecond > 0)).toBe(
          true,
        );
        for (let i = 1; i < events.length; i++) {
          expect(events[i]!.decoded).toBeGreaterThanOrEqual(events[i - 1]!.decoded);
          expect(events[i]!.envelopes).toBeGreaterThanOrEqual(events[i - 1]!.envelopes);
        }
        // The raw capture knows its size from the start: the bar has a total.
        if (kind === 'raw-sse') expect(events.every((p) => p.total === size)).toBe(true);
      } finally {
        await service.dispose();
      }
    },
    90_000,
  );

  it('a download counts the bytes it builds, and ends once', async () => {
    const { service, id, loaded, events } = await openBig();
    try {
      const file = await service.downloadSession({ sessionId: id, kind: 'envelopes-ndjson' });
      expect(events.filter((p) => p.done)).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ done: true, decoded: file.bytes, envelopes: loaded.envelopes });
      expect(events.some((p) => !p.done && p.decoded > 0 && p.decoded < file.bytes)).toBe(true);
    } finally {
      await service.dispose();
    }
  }, 90_000);

  it('closing the session stops its export with a clear message, removes the partial file and ends the bar', async () => {
    const { service, id, events } = await openBig();
    try {
      const path = join(dir, 'cancelled.ndjson');
      const exporting = service.exportSession({ sessionId: id, kind: 'envelopes-ndjson', path });
      // Closed once the export has written something.
      await new Promise<void>((resolve) => {
        const poll = () => (events.some((p) => p.decoded > 0) ? resolve() : setTimeout(poll, 1));
        poll();
      });
      await service.closeSession({ sessionId: id });
      await expect(exporting).rejects.toThrow('The export stopped: its session was closed.');
      await expect(access(path)).rejects.toThrow();
      expect(events.filter((p) => p.done)).toHaveLength(1);
    } finally {
      await service.dispose();
    }
  }, 90_000);

  it('a failed export ends its bar too: the file exists already', async () => {
    const { service, id, events } = await openBig();
    try {
      await expect(service.exportSession({ sessionId: id, kind: 'har', path: recording })).rejects.toThrow(
        /already exists/,
      );
      expect(events.filter((p) => p.done)).toHaveLength(1);
      expect((await stat(recording)).size).toBeGreaterThan(0);
    } finally {
      await service.dispose();
    }
  }, 90_000);
});
