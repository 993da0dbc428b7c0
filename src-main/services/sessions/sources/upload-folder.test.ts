import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { readFixture } from '../../../testing/fixtures';
import { settled, useServicePerTest } from '../service-testing';
import type { SessionSummary } from '../../../../src-shared/contract/payloads';

/** Uploads (browser host): a private folder per run, files readable by the user only, removed on close and at exit (docs/security.md, "Files"). */
const fresh = useServicePerTest('inspector-uploads-', (dir) => createDefaultSessionService({ uploadDir: dir }));

const upload = (name: string) =>
  fresh.service.openUpload({ name, base64: Buffer.from(readFixture('json_stream.json.sse')).toString('base64') });
/** Where an upload's copy was written. */
const pathOf = (summary: SessionSummary): string => (summary.source.kind === 'file' ? summary.source.path : '');
const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('uploads', () => {
  it('are written into a private folder made for this run (0700), each file 0600', async () => {
    const uploaded = await upload('run.sse');
    await settled(fresh.service, uploaded.id);
    const path = pathOf(uploaded);
    expect(dirname(dirname(path))).toBe(fresh.dir);
    expect(await mode(dirname(path))).toBe(0o700);
    expect(await mode(path)).toBe(0o600);
    // Another run (another service) gets a folder of its own.
    const other = createDefaultSessionService({ uploadDir: fresh.dir });
    const second = await other.openUpload({ name: 'run.sse', base64: Buffer.from('data: x\n\n').toString('base64') });
    expect(dirname(pathOf(second))).not.toBe(dirname(path));
    await other.dispose();
  });

  it('are deleted when their session closes, and the folder when the service is disposed (the host exits)', async () => {
    const first = await upload('a.sse');
    const second = await upload('b.sse');
    await settled(fresh.service, first.id);
    const folder = dirname(pathOf(first));
    expect((await readdir(folder)).length).toBe(2);
    await fresh.service.closeSession({ sessionId: first.id });
    expect(await readdir(folder)).toEqual([expect.stringMatching(/-b\.sse$/) as unknown]);
    expect(second.id).toBeTruthy();
    await fresh.service.dispose();
    await expect(stat(folder)).rejects.toThrow(/ENOENT/);
    expect(await readdir(fresh.dir)).toEqual([]);
  });

  it('an upload that cannot be opened leaves no file behind', async () => {
    await expect(
      fresh.service.openUpload({ name: 'notes.txt', base64: Buffer.from('just notes\n').toString('base64') }),
    ).rejects.toThrow(/notes\.txt/);
    const folders = await readdir(fresh.dir);
    for (const folder of folders) expect(await readdir(join(fresh.dir, folder))).toEqual([]);
  });
});
