import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { fixturePath, readFixture } from '../../../testing/fixtures';
import { openSource } from '../../importers';
import { createSessionRegistry, type SessionRegistry } from '../session-registry';
import { runSpoolFolder } from '../spool-folders';
import { waitFor } from '../service-testing';
import { runCli } from '../../../cli/test-io';
import { createFileSessions } from './file-session';

let registry: SessionRegistry | undefined;
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-session-'));
});

afterEach(async () => {
  for (const rt of registry?.sessions.values() ?? []) rt.data.dispose();
  registry?.dispose();
  registry = undefined;
  await rm(dir, { recursive: true, force: true });
});

function setup(opened: string[] = []) {
  registry = createSessionRegistry({ openSource, uploadDir: dir, onFileOpened: (path) => opened.push(path) });
  return { registry, files: createFileSessions(registry) };
}

const loaded = (registry: SessionRegistry, id: string) =>
  waitFor(() => (registry.runtimeOf(id).loading ? undefined : registry.runtimeOf(id).data), `${id} to load`);

describe('file sessions', () => {
  it('opens a file into a complete session with every envelope, and reports it as opened', async () => {
    const opened: string[] = [];
    const { registry, files } = setup(opened);
    const summary = await files.openFile({ path: fixturePath('example_1.json.sse') });
    const data = await loaded(registry, summary.id);
    expect(data.state).toBe('complete');
    expect(data.envelopeCount).toBe(decodeBytes(readFixture('example_1.json.sse')).envelopes.length);
    expect(opened).toEqual([fixturePath('example_1.json.sse')]);
  });

  it("opens a check report's recordings whose checks failed, each with what failed among its findings", async () => {
    const { registry, files } = setup();
    const names = ['example_1.json.sse', 'error_midstream.json.sse', 'frontend_tools.xml.sse'];
    for (const name of names) await writeFile(join(dir, name), readFixture(name));
    await runCli(['check', '--expect', 'status == "done"', '--junit', 'report.xml', ...names], { cwd: dir });
    const first = await files.openFile({ path: join(dir, 'report.xml') });
    // The passing recording is not opened: a report is opened to look at what failed.
    const opened = [...registry.sessions.values()].map((rt) => rt.data);
    expect(opened.map((data) => data.title)).toEqual(['error_midstream.json.sse', 'frontend_tools.xml.sse']);
    expect(first.title).toBe('error_midstream.json.sse');
    for (const data of opened) await loaded(registry, data.id);
    const checks = opened.map((data) => data.diagnostics().filter((d) => d.rule === 'recording.check-failed'));
    expect(checks.map((found) => found.map((d) => [d.severity, d.message]))).toEqual([
      [['warning', expect.stringMatching(/^The check status == "done" failed \(report\.xml\): status is error: /)]],
      [['warning', expect.stringMatching(/^The check status == "done" failed \(report\.xml\): status is paused: /)]],
    ]);
    // A finding of the report's is not of the stream: the session's own status is untouched
    // (a warning; an error of the recording layer would say the stream lost data).
    expect(opened[0]?.summary().end?.kind).toBe('error');
  });

  it('refuses a check report that would open more than 50 recordings, saying how many and why', async () => {
    const { registry, files } = setup();
    await writeFile(join(dir, 'cut.sse'), 'data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n');
    const suites = Array.from(
      { length: 51 },
      (_, i) =>
        `  <testsuite name="cut.sse" tests="1" failures="1">\n    <properties><property name="recording" value="${join(dir, `cut-${i}.sse`)}"/></properties>\n    <testcase classname="cut.sse" name="status == &quot;done&quot;">\n      <failure type="assertion" message="status is truncated">x</failure>\n    </testcase>\n  </testsuite>\n`,
    ).join('');
    const report = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="51" failures="51">\n${suites}</testsuites>\n`;
    await writeFile(join(dir, 'big.xml'), report);
    await expect(files.openFile({ path: join(dir, 'big.xml') })).rejects.toThrow(
      /names 51 recordings whose checks failed, more than the 50 one report opens: open them one by one, or check fewer in one run$/,
    );
    expect(registry.sessions.size).toBe(0);
  });

  it("opens every recording of a check report that all passed, each a session the same as the recording opened alone, with no finding of the report's", async () => {
    const { registry, files } = setup();
    const names = ['example_1.json.sse', 'frontend_tools.xml.sse'];
    for (const name of names) await writeFile(join(dir, name), readFixture(name));
    await runCli(['check', '--expect', 'status != "failed"', '--junit', 'report.xml', ...names], { cwd: dir });
    const first = await files.openFile({ path: join(dir, 'report.xml') });
    expect(first.title).toBe('example_1.json.sse');
    const opened = [...registry.sessions.values()].map((rt) => rt.data);
    expect(opened.map((data) => data.title)).toEqual(names);
    for (const [i, data] of opened.entries()) {
      await loaded(registry, data.id);
      expect(data.envelopeCount).toBe(decodeBytes(readFixture(names[i] as string)).envelopes.length);
      expect(data.diagnostics().filter((d) => d.rule === 'recording.check-failed')).toEqual([]);
    }
  });

  it("reopened under its old id, a report's recording reads its failures from the report again; a report gone or replaced gives none, and is not opened", async () => {
    const { registry, files } = setup();
    await writeFile(join(dir, 'bad.sse'), readFixture('error_midstream.json.sse'));
    await runCli(['check', '--expect', 'status == "done"', '--junit', 'report.xml', 'bad.sse'], { cwd: dir });
    const checks = async (id: string) =>
      (await loaded(registry, id)).diagnostics().filter((d) => d.rule === 'recording.check-failed').length;
    const report = join(dir, 'report.xml');
    const reopen = (sessionId: string) =>
      files.reopen({ sessionId, path: join(dir, 'bad.sse'), title: 'bad.sse', report });
    expect(await checks((await reopen('again')).id)).toBe(1);
    await writeFile(report, readFixture('example_1.json.sse'));
    expect(await checks((await reopen('replaced')).id)).toBe(0);
    await expect(openSource(report, { checkReportOnly: true })).rejects.toThrow(
      `${report}: not a JUnit report of stream-inspector check`,
    );
    await rm(report);
    const gone = await reopen('gone');
    expect(await checks(gone.id)).toBe(0);
    expect(gone.source).toMatchObject({ kind: 'file', report });
    expect([...registry.sessions.keys()]).toEqual(['again', 'replaced', 'gone']);
  });

  it('refuses to reload the HAR entries a session had opened once the file no longer has them, saying which, and opens nothing', async () => {
    const { registry, files } = setup();
    const entry = {
      request: { method: 'POST', url: 'http://h/run', headers: [] },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { mimeType: 'text/event-stream', text: Buffer.from(readFixture('example_1.json.sse')).toString() },
      },
    };
    const har = join(dir, 'edited.har');
    await writeFile(har, JSON.stringify({ log: { creator: { name: 'DevTools' }, entries: [entry, entry] } }));
    await expect(files.reopen({ sessionId: 's', path: har, title: 'edited.har', entries: [1, 4] })).rejects.toThrow(
      `${har}: the HAR file has no entry #4 (it has 2, numbered from 0).`,
    );
    expect(registry.sessions.size).toBe(0);
  });

  it('reloads the recordings one report opened with one read of the report between them', async () => {
    const reads: string[] = [];
    registry = createSessionRegistry({
      openSource: (path, options) => {
        if (options?.checkReportOnly) reads.push(path);
        return openSource(path, options);
      },
      uploadDir: dir,
    });
    const files = createFileSessions(registry);
    const names = ['error_midstream.json.sse', 'frontend_tools.xml.sse'];
    for (const name of names) await writeFile(join(dir, name), readFixture(name));
    await runCli(['check', '--expect', 'status == "done"', '--junit', 'report.xml', ...names], { cwd: dir });
    const report = join(dir, 'report.xml');
    const reopened = await Promise.all(
      names.map((name) => files.reopen({ sessionId: name, path: join(dir, name), title: name, report })),
    );
    expect(reads).toEqual([report]);
    for (const { id } of reopened)
      expect(
        (await loaded(registry, id)).diagnostics().filter((d) => d.rule === 'recording.check-failed'),
      ).toHaveLength(1);
  });

  it('refuses a check report whose recordings are gone, or that names none, saying which', async () => {
    const { registry, files } = setup();
    await writeFile(join(dir, 'gone.sse'), readFixture('example_1.json.sse'));
    await runCli(['check', '--expect', 'status == "done"', '--junit', 'report.xml', 'gone.sse'], { cwd: dir });
    await rm(join(dir, 'gone.sse'));
    const gone = await files.openFile({ path: join(dir, 'report.xml') }).catch((e: unknown) => e as Error);
    expect((gone as Error).message).toBe(
      `${join(dir, 'report.xml')}: a JUnit report of stream-inspector check whose recordings cannot all be opened: ${JSON.stringify(join(dir, 'gone.sse'))}: no such file or directory`,
    );
    const empty =
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="0" failures="0">\n</testsuites>\n';
    await writeFile(join(dir, 'empty.xml'), empty);
    await expect(files.openFile({ path: join(dir, 'empty.xml') })).rejects.toThrow(
      /a JUnit report of stream-inspector check that names no recording$/,
    );
    const folder = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="0" failures="0">\n  <testsuite name="runs" tests="0" failures="0">\n    <properties><property name="recording" value="${dir}"/></properties>\n  </testsuite>\n</testsuites>\n`;
    await writeFile(join(dir, 'folder.xml'), folder);
    await expect(files.openFile({ path: join(dir, 'folder.xml') })).rejects.toThrow(
      `cannot all be opened: ${JSON.stringify(dir)}: not a regular file`,
    );
    expect(registry.sessions.size).toBe(0);
  });

  it('opens an upload from a private copy under the name the user gave, and a failure names the upload, not the copy', async () => {
    const { registry, files } = setup();
    const base64 = Buffer.from(readFixture('example_1.json.sse')).toString('base64');
    const summary = await files.openUpload({ name: 'my run.sse', base64 });
    expect(summary.title).toBe('my run.sse');
    expect(registry.runtimeOf(summary.id).data.source).toMatchObject({ kind: 'file', uploaded: true });
    // The copy is in this run's private folder inside the upload folder (upload-folder.ts).
    const [folder] = await readdir(dir);
    expect((await readdir(join(dir, folder!))).some((name) => name.endsWith('-my_run.sse'))).toBe(true);
    const har = await files
      .openUpload({ name: 'broken.har', base64: Buffer.from('{"log": ').toString('base64') })
      .catch((e: unknown) => e as Error);
    expect(har).toBeInstanceOf(Error);
    expect((har as Error).message).toContain('broken.har');
    expect((har as Error).message).not.toContain(dir);
  });

  it("keeps uploads inside the run's spool folder by default, so a crashed run's uploads go with its spool at the next start", async () => {
    const spoolDir = runSpoolFolder(dir);
    registry = createSessionRegistry({ openSource, spoolDir });
    const files = createFileSessions(registry);
    const base64 = Buffer.from(readFixture('example_1.json.sse')).toString('base64');
    await files.openUpload({ name: 'run.sse', base64 });
    const [uploads] = await readdir(spoolDir);
    expect(uploads).toMatch(/^stream-inspector-uploads-/);
    expect(await readdir(join(spoolDir, uploads!))).toEqual([expect.stringMatching(/-run\.sse$/)]);
  });

  it('reopens a file under the id it had, unless a session of that id is open', async () => {
    const opened: string[] = [];
    const { registry, files } = setup(opened);
    const path = join(dir, 'run.sse');
    await writeFile(path, readFixture('example_1.json.sse'));
    const summary = await files.reopen({ sessionId: 's-old', path, title: 'old run' });
    expect(summary).toMatchObject({ id: 's-old', title: 'old run' });
    await loaded(registry, 's-old');
    // A reloaded session is not a file the user opened.
    expect(opened).toEqual([]);
    await expect(files.reopen({ sessionId: 's-old', path, title: 'again' })).rejects.toThrow(
      'Session s-old is open already',
    );
  });
});
