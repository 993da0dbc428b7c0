import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { runCli } from '../../cli/test-io';
import { settled, useFileService } from './service-testing';

/**
 * A dialect the user chose ("Decode as") is kept by what the session is saved as — its
 * recording (live, saved, spooled for the recent sessions), its envelope export, its HAR — so that the
 * file reopens decoded as it, in the app and in the CLI, unless the user chooses again.
 */

const files = useFileService('inspector-decode-as-', createDefaultSessionService);

// The upstream agent's envelopes, which detection takes as `json`: shown as generic JSON events by choice.
const FIXTURE = 'frontend_tools.json.sse';
const CHOSEN = 'json-events';

async function reopen(path: string, format?: 'json') {
  const { id } = await files.service.openFile({ path, ...(format ? { format } : {}) });
  return settled(files.service, id);
}

describe('a dialect chosen by the user', () => {
  it('must not: a file opened without a choice is detected (json), so the cases below are the choice kept', async () => {
    const summary = await reopen(fixturePath(FIXTURE));
    expect(summary).toMatchObject({ format: 'json', detection: { by: 'content' } });
  });

  it('is kept by a saved recording, an envelope export and a HAR: each reopens decoded as it, unless another is chosen', async () => {
    const { id } = await files.service.openFile({ path: fixturePath(FIXTURE), format: CHOSEN });
    const original = await settled(files.service, id);
    expect(original).toMatchObject({ format: CHOSEN, detection: { by: 'chosen' } });

    const saved = await files.service.saveRecording({ sessionId: id, path: join(files.dir, 'chosen.recording') });
    expect((await readFile(saved!.path, 'utf8')).split('\n')[0]).toContain(`"decodeAs":"${CHOSEN}"`);
    const exported = await files.service.exportSession({
      sessionId: id,
      kind: 'envelopes-ndjson',
      path: join(files.dir, 'chosen.ndjson'),
    });
    const har = await files.service.exportSession({ sessionId: id, kind: 'har', path: join(files.dir, 'chosen.har') });
    for (const path of [saved!.path, exported!.path, har!.path]) {
      const again = await reopen(path);
      expect({ path, format: again.format, detection: again.detection, envelopes: again.envelopes }).toEqual({
        path,
        format: CHOSEN,
        detection: { by: 'chosen', data: 'json' },
        envelopes: original.envelopes,
      });
      // A choice made now wins over the file's.
      expect(await reopen(path, 'json')).toMatchObject({ format: 'json', detection: { by: 'chosen' } });
      // The CLI reads the file as the app does.
      const cli = await runCli(['inspect', '--json', path]);
      expect(JSON.parse(cli.out)).toMatchObject({ formats: [CHOSEN], detections: [{ by: 'chosen' }] });
    }
  });

  it('is kept by the recording of a live session, as the recent sessions reopen it', async () => {
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture(FIXTURE));
    });
    const path = join(files.dir, 'live.recording');
    const { id } = await files.service.connect({
      url: `${server.url}/agent/run`,
      method: 'GET',
      headers: [],
      format: CHOSEN,
      recordTo: path,
    });
    const live = await settled(files.service, id);
    await server.close();
    expect(live.format).toBe(CHOSEN);
    await files.service.closeSession({ sessionId: id });
    expect(await reopen(path)).toMatchObject({ format: CHOSEN, detection: { by: 'chosen' } });
  });

  it('must not: a recording that names a dialect this version does not know is detected from its bytes', async () => {
    const { id } = await files.service.openFile({ path: fixturePath(FIXTURE) });
    await settled(files.service, id);
    const saved = await files.service.saveRecording({ sessionId: id, path: join(files.dir, 'plain.recording') });
    const text = await readFile(saved!.path, 'utf8');
    expect(text.split('\n')[0]).not.toContain('decodeAs');
    const unknown = join(files.dir, 'unknown.recording');
    const [header, ...records] = text.split('\n');
    await writeFile(unknown, [header!.replace(/}$/, ',"decodeAs":"martian-rpc"}'), ...records].join('\n'));
    expect(await reopen(unknown)).toMatchObject({ format: 'json', detection: { by: 'content' } });
  });
});
