import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_SAMPLES_DIR } from '../../src-main/services/samples/sample-commands';
import { readFixture } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, host, test } from './fixtures';

/**
 * Every export of a finished two-leg frontend-tool session (a run paused on a tool, the answer,
 * its continuation) opens again as that session: same legs, same end, same findings — the
 * envelope export (which carries each event's bytes) and the raw capture of several legs included, whose legs once ran together into one stream with an error
 * after every [DONE]. A HAR of several entries that the inspector did not write opens a picker
 * listing them instead of a message naming a command-line flag.
 */
let folder: string;
test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-25-exports-'));
});
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('every export of a two-leg session reopens as the same session', async ({ app, inspector }) => {
  test.skip(host === 'electron', 'The desktop app saves through its own save dialog');
  await app.openFiles(join(PROJECT_SAMPLES_DIR, 'frontend-tool.recording'));
  await app.expectState('done');
  const [original] = await inspector.listSessions();
  expect(original).toMatchObject({ legs: 2, awaitingTools: false, end: { kind: 'done' } });

  for (const [label, extension] of [
    ['Raw SSE capture', 'sse'],
    ['Envelopes (NDJSON)', 'ndjson'],
    ['HAR (HTTP archive)', 'har'],
  ] as const) {
    await app.selectSession('frontend-tool.recording');
    const download = await app.exportAsDownload(label);
    const path = join(folder, `export.${extension}`);
    await download.saveAs(path);
    await app.openFiles(path);
    await expect(app.sessionTitle).toHaveText(`export.${extension}`);
    await app.expectState('done');
    const reopened = (await inspector.listSessions()).find((s) => s.title === `export.${extension}`);
    expect(reopened, extension).toMatchObject({
      legs: 2,
      awaitingTools: false,
      end: { kind: 'done' },
      envelopes: original!.envelopes,
      diagnostics: original!.diagnostics,
    });
    await expect(app.page.getByTestId(TEST_IDS.statusLine)).toContainText('2 legs');
  }
  await app.screenshot('25-exports-reopened');
});

test('a HAR of several entries opens a picker listing them, and opens the chosen ones as legs', async ({
  app,
  inspector,
  page,
}) => {
  const entry = (url: string, mimeType: string, text: string) => ({
    startedDateTime: '2026-03-01T12:00:00.000Z',
    request: { method: url.endsWith('sessions') ? 'GET' : 'POST', url, headers: [] },
    response: {
      status: 200,
      statusText: 'OK',
      headers: [{ name: 'Content-Type', value: mimeType }],
      content: { size: Buffer.byteLength(text), mimeType, text },
    },
    timings: { wait: 5, receive: 10 },
  });
  const text = (name: string) => Buffer.from(readFixture(name)).toString('utf8');
  const path = join(folder, 'devtools.har');
  await writeFile(
    path,
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          entry('http://127.0.0.1:8787/agent/sessions', 'application/json', '[]'),
          entry('http://127.0.0.1:8787/agent/run', 'text/event-stream', text('frontend_tools.json.sse')),
          entry(
            'http://127.0.0.1:8787/agent/tool_results',
            'text/event-stream',
            text('frontend_tools_resume.json.sse'),
          ),
        ],
      },
    }),
  );
  await app.openFiles(path);
  const picker = page.getByTestId(TEST_IDS.harPicker);
  await expect(picker).toBeVisible();
  await expect(app.sessionState).toHaveText('choose entries');
  await app.expectNoErrors();
  const rows = page.getByTestId(TEST_IDS.harEntry);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('GET');
  await expect(rows.nth(0)).toContainText('http://127.0.0.1:8787/agent/sessions');
  await expect(rows.nth(0)).toContainText('application/json');
  await expect(rows.nth(0)).toContainText('2 B');
  await expect(rows.nth(1)).toContainText('event stream');
  await expect(rows.nth(1)).toContainText('200');
  // The first event stream is ticked; the continuation is ticked by hand, to open both as legs.
  await expect(rows.nth(1).locator('input')).toBeChecked();
  await rows.nth(2).locator('input').check();
  await app.screenshotSizesAndThemes('25-har-picker');
  await page.getByTestId(TEST_IDS.harOpen).click();
  await expect(picker).toHaveCount(0);
  await app.expectState('done');
  await expect(page.getByTestId(TEST_IDS.statusLine)).toContainText('2 legs');
  const [opened] = await inspector.listSessions();
  expect(opened).toMatchObject({ legs: 2, end: { kind: 'done' }, diagnostics: { error: 0 } });
});
