import { writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DownloadKind } from '../../../src-shared/contract/payloads';
import { FILE_FORMATS } from '../../../src-shared/export/formats';
import { createDefaultSessionService } from '../../hosts/default-service';
import { SAMPLES } from '../samples/catalogue';
import {
  PROJECT_ROOT,
  UNKNOWN_FIXTURES_DIR,
  externalFixturePath,
  fixturePath,
  listExternalFixtures,
  listProviderFixtures,
  listSseFixtures,
  listUnknownFixtures,
  providerFixturePath,
} from '../../testing/fixtures';
import { PROJECT_SAMPLES_DIR } from '../samples/sample-commands';
import { settled, useFileService } from './service-testing';

/**
 * Every export the app writes, opened again: of every sample recording, and of every stream
 * fixture: the upstream agent's, each provider dialect's (their cut, error and incomplete ends),
 * the recorded external streams (CRLF, line-framed and JSON-array wires) and streams no dialect
 * claims. A format that `reopens` the session gives it back whole:
 * legs, how it ended, every row and every finding. A file for reading does not open as a
 * session at all.
 */

const SAMPLE_FILES = SAMPLES.flatMap((sample) => sample.files.map((f) => join(PROJECT_SAMPLES_DIR, f.file)));
const STREAM_FILES = [
  ...listSseFixtures().map(fixturePath),
  ...listProviderFixtures().map(providerFixturePath),
  ...listExternalFixtures().map(externalFixturePath),
  ...listUnknownFixtures().map((name) => join(UNKNOWN_FIXTURES_DIR, name)),
];
const FORMATS = Object.entries(FILE_FORMATS) as [DownloadKind, (typeof FILE_FORMATS)[DownloadKind]][];

const files = useFileService('inspector-round-trip-', createDefaultSessionService);

async function describeSession(id: string) {
  const summary = await settled(files.service, id);
  const [rows, findings, blocks] = await Promise.all([
    files.service.getRows({ sessionId: id, start: 0, count: 10_000 }),
    files.service.getDiagnostics({ sessionId: id }),
    files.service.getBlocks({ sessionId: id }),
  ]);
  return {
    shape: { legs: summary.legs, state: summary.state, end: summary.end?.kind, awaitingTools: summary.awaitingTools },
    rows: rows.rows.map((r) => [r.leg, r.agent, r.type, r.final, r.preview]),
    findings: findings.map((d) => `${d.severity} ${d.rule}`).sort(),
    blocks: blocks.map((b) => [b.leg, b.kind, b.status, b.preview]),
  };
}

describe.each([...SAMPLE_FILES, ...STREAM_FILES].map((path) => ({ path, name: relative(PROJECT_ROOT, path) })))(
  'the exports of $name',
  ({ path: file }) => {
    let original: Awaited<ReturnType<typeof describeSession>>;
    let sessionId: string;
    beforeAll(async () => {
      sessionId = (await files.service.openFile({ path: file })).id;
      original = await describeSession(sessionId);
    });

    it.each(FORMATS)('%s', async (kind, format) => {
      const download = await files.service.downloadSession({ sessionId, kind });
      const path = join(files.dir, `${basename(file)}.${format.extension}`);
      await writeFile(path, Buffer.from(download.base64, 'base64'));
      if (kind === 'blocks-json' && original.blocks.length === 0) {
        // `[]`, which is also an empty streamed JSON array: it opens as one, claiming nothing.
        const empty = await describeSession((await files.service.openFile({ path })).id);
        expect(empty).toMatchObject({ shape: { legs: 1, end: 'ended' }, rows: [], findings: [] });
        return;
      }
      if (format.reopens === 'no') {
        // Refused with a message naming the file and what it is not.
        await expect(files.service.openFile({ path })).rejects.toThrow(path);
        return;
      }
      const reopened = await describeSession((await files.service.openFile({ path })).id);
      expect(reopened.shape).toEqual(original.shape);
      expect(reopened.rows).toEqual(original.rows);
      expect(reopened.findings).toEqual(original.findings);
      expect(reopened.blocks).toEqual(original.blocks);
    });
  },
);
