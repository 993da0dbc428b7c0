import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskProgress } from '../../../../src-shared/contract/payloads';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { writeBigRecording } from '../../recording/big-recording-testing';
import { settled } from '../service-testing';

/** The progress the session service reports for a long open: what every host's progress bar shows. */
let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-progress-'));
  path = join(dir, 'big.jsonl');
  await writeBigRecording(path, 4 * 1024 * 1024);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('progress of opening a file', () => {
  it('ticks with the bytes decoded of the file and the envelope rate, and ends once with everything decoded', async () => {
    const service = createDefaultSessionService({ statusIntervalMs: 20 });
    const events: TaskProgress[] = [];
    service.onProgress((p) => events.push(p));
    try {
      const { id } = await service.openFile({ path });
      const loaded = await settled(service, id, 60_000);
      const { size } = await stat(path);
      expect(events.length).toBeGreaterThan(1);
      expect(events.every((p) => p.sessionId === id && p.task === 'open' && p.total === size)).toBe(true);
      expect(events.filter((p) => p.done)).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ done: true, decoded: size, received: size, envelopes: loaded.envelopes });
      // Every tick has a rate, the first included (measured from the start of the open).
      expect(events.filter((p) => p.envelopes > 0).every((p) => p.envelopesPerSecond > 0)).toBe(true);
    } finally {
      await service.dispose();
    }
  }, 90_000);
});
