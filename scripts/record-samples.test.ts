import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFile } from '../src-main/cli/decode-file';
import { memoryIo } from '../src-main/cli/test-io';
import { SAMPLES } from '../src-main/services/samples/catalogue';
import { PROJECT_SAMPLES_DIR } from '../src-main/services/samples/sample-commands';
import { recordSamples, SAMPLE_ORIGIN } from './record-samples';

/** What a recording decodes to, without the receive times (they differ on every run). */
async function decoded(path: string) {
  const result = await decodeFile(path, 'auto', memoryIo());
  return {
    formats: result.formats,
    envelopes: result.envelopes.map(({ receivedAt: _time, ...envelope }) => envelope),
    blocks: result.blocks.length,
    diagnostics: result.diagnostics.map((d) => d.rule),
    messages: result.diagnostics.map((d) => d.message),
  };
}

/** Each record's type and field names: the file's format, whatever the times and chunk boundaries. */
async function recordShapes(path: string): Promise<string[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  const shapes = lines.map((line) => {
    const record = JSON.parse(line) as { type?: string };
    return `${record.type ?? 'header'}: ${Object.keys(record).sort().join(',')}`;
  });
  return [...new Set(shapes)].sort();
}

/** The request of every leg (method, URL, body): what the recording says was asked. */
async function requests(path: string): Promise<unknown[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  return lines
    .map((line) => JSON.parse(line) as { type?: string; request?: unknown })
    .filter((r) => r.type === 'leg')
    .map((r) => r.request);
}

describe('the sample recordings', () => {
  let dir: string;
  let fresh: string[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inspector-samples-test-'));
    fresh = await recordSamples(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('records one file per catalogue entry', () => {
    expect(fresh.map((f) => basename(f))).toEqual(SAMPLES.flatMap((s) => s.files.map((f) => f.file)));
  });

  it.each(SAMPLES.flatMap((s) => s.files.map((f) => f.file)))(
    '%s: re-recording from the demo agent gives the committed envelopes',
    async (file) => {
      const committed = join(PROJECT_SAMPLES_DIR, file);
      expect(await decoded(join(dir, file))).toEqual(await decoded(committed));
      expect(await requests(join(dir, file))).toEqual(await requests(committed));
      expect(await recordShapes(join(dir, file)), 'recorded in the current recording format').toEqual(
        await recordShapes(committed),
      );
    },
  );

  it('names the demo agent at its documented port and holds no other origin', async () => {
    for (const file of fresh) {
      const urls = (await requests(file)).map((r) => (r as { url: string }).url);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(`${SAMPLE_ORIGIN}/agent/`)).toBe(true);
    }
  });

  it('shows what each sample is for', async () => {
    const byFile = new Map(await Promise.all(fresh.map(async (f) => [basename(f), await decoded(f)] as const)));
    const agents = new Set(byFile.get('multi-agent.recording')!.envelopes.map((e) => e.agent));
    expect(agents.size).toBe(3);
    const paused = byFile.get('frontend-tool.recording')!;
    expect(paused.envelopes.some((e) => e.type === 'awaiting_frontend_tools' && e.leg === 0)).toBe(true);
    expect(paused.envelopes.some((e) => e.leg === 1)).toBe(true);
    expect(byFile.get('tour.xml.recording')!.formats).toEqual(['xml']);
    expect(byFile.get('tour.json.recording')!.formats).toEqual(['json']);
    expect(byFile.get('truncated.recording')!.diagnostics).toEqual(
      expect.arrayContaining(['sse.unterminated-event', 'stream.missing-done', 'block.unterminated']),
    );
  });
});
