import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadKind } from '../../../src-shared/contract/payloads';
import { RULES } from '../../../src-shared/diagnostics/rules';
import { FILE_FORMATS } from '../../../src-shared/export/formats';
import { createDefaultSessionService } from '../../hosts/default-service';
import { SAMPLES } from '../samples/catalogue';
import { PROJECT_SAMPLES_DIR } from '../samples/sample-commands';
import { settled } from './service-testing';
import type { SessionService } from './session-service';

/**
 * Every export the app writes, of every sample recording, opened again. A format that
 * `reopens` the session gives it back whole: legs, how it ended, every row and every finding.
 * The envelope export gives back the legs, the end and the blocks, and the findings made from
 * the envelopes (reconstruction, inline protocols); what only the wire showed is what its
 * `keeps` says it cannot carry. A file for reading does not open as a session at all.
 */

const SAMPLE_FILES = SAMPLES.flatMap((sample) => sample.files.map((f) => f.file));
const FORMATS = Object.entries(FILE_FORMATS) as [DownloadKind, (typeof FILE_FORMATS)[DownloadKind]][];
/** Findings drawn from the envelopes themselves, which the envelope export carries. */
const ENVELOPE_LAYERS: ReadonlySet<string> = new Set(['reconstruct', 'inline']);

let dir: string;
let service: SessionService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-round-trip-'));
  service = createDefaultSessionService();
});
afterAll(async () => {
  await service.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function describeSession(id: string) {
  const summary = await settled(service, id);
  const [rows, findings, blocks] = await Promise.all([
    service.getRows({ sessionId: id, start: 0, count: 10_000 }),
    service.getDiagnostics({ sessionId: id }),
    service.getBlocks({ sessionId: id }),
  ]);
  return {
    shape: { legs: summary.legs, state: summary.state, end: summary.end?.kind, awaitingTools: summary.awaitingTools },
    rows: rows.rows.map((r) => [r.leg, r.agent, r.type, r.final, r.preview]),
    findings: findings.map((d) => `${d.severity} ${d.rule}`).sort(),
    blocks: blocks.map((b) => [b.leg, b.kind, b.status, b.preview]),
  };
}

describe.each(SAMPLE_FILES)('the exports of %s', (file) => {
  let original: Awaited<ReturnType<typeof describeSession>>;
  let sessionId: string;
  beforeAll(async () => {
    sessionId = (await service.openFile({ path: join(PROJECT_SAMPLES_DIR, file) })).id;
    original = await describeSession(sessionId);
  });

  it.each(FORMATS)('%s', async (kind, format) => {
    const download = await service.downloadSession({ sessionId, kind });
    const path = join(dir, `${file}.${format.extension}`);
    await writeFile(path, Buffer.from(download.base64, 'base64'));
    if (format.reopens === 'no') {
      // Refused with a message naming the file and what it is not.
      await expect(service.openFile({ path })).rejects.toThrow(path);
      return;
    }
    const reopened = await describeSession((await service.openFile({ path })).id);
    expect(reopened.shape).toEqual(original.shape);
    if (format.reopens === 'session') {
      expect(reopened.rows).toEqual(original.rows);
      expect(reopened.findings).toEqual(original.findings);
    } else {
      const ofEnvelopes = (findings: string[]) =>
        findings.filter((f) => ENVELOPE_LAYERS.has(RULES[f.split(' ')[1] as keyof typeof RULES].layer));
      expect(reopened.blocks).toEqual(original.blocks);
      expect(ofEnvelopes(reopened.findings)).toEqual(ofEnvelopes(original.findings));
    }
  });
});
