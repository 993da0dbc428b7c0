import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, host, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * In the browser host, Save and every Export are downloads the page starts with bytes main
 * builds (there is no save dialog to choose a path in). Each file is what it says: the
 * recording, the raw capture, the envelopes and the HAR open again as the same session; the
 * blocks are JSON; the transcript is the conversation in Markdown.
 */
let folder: string;
test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-downloads-'));
});
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('saves and exports a session as downloads that reopen to the same envelopes', async ({
  app,
  connect,
  timeline,
}) => {
  test.skip(host === 'electron', 'The desktop app saves through its own save dialog');
  await connect.chooseDemo({ scenario: 'citations', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  const total = await timeline.total();
  const title = await app.sessionTitle.innerText();
  expect(title).toBe('Demo agent: Citations · json');
  // Named after the session, in characters every shell and platform takes as they are.
  const base = 'Demo-agent-Citations-json';

  const saved = await app.saveAsDownload();
  expect(saved.suggestedFilename()).toBe(`${base}.recording`);
  const files: Record<string, string> = { recording: join(folder, saved.suggestedFilename()) };
  await saved.saveAs(files['recording']!);
  await expect(app.errorBanner).toContainText('is downloading');

  for (const [label, extension] of [
    ['Raw SSE capture', '.sse'],
    ['Envelopes (NDJSON)', '.ndjson'],
    ['HAR (HTTP archive)', '.har'],
    ['Blocks (JSON)', '.blocks.json'],
    ['Transcript (Markdown)', '.md'],
  ] as const) {
    const download = await app.exportAsDownload(label);
    expect(download.suggestedFilename()).toBe(`${base}${extension}`);
    files[extension] = join(folder, download.suggestedFilename());
    await download.saveAs(files[extension]);
  }

  const blocks = JSON.parse(await readFile(files['.blocks.json']!, 'utf8')) as { kind: string }[];
  expect(blocks.some((b) => b.kind === 'text')).toBe(true);
  const transcript = await readFile(files['.md']!, 'utf8');
  expect(transcript.startsWith(`# ${title}\n`)).toBe(true);
  expect(transcript).toContain('Eiffel');

  for (const file of [files['recording']!, files['.sse']!, files['.ndjson']!, files['.har']!]) {
    await app.openFiles(file);
    await app.expectState(ENDED);
    await expect.poll(() => timeline.total(), { message: file }).toBe(total);
  }
  await app.expectNoErrors();
});
