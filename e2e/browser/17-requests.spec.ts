import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract';
import { TEST_IDS } from '../../src-renderer/testids';
import { connectInspector } from '../support/inspector';
import { expect, host, test } from './fixtures';
import { AppPage } from './pages/app-page';

/**
 * Requests and environments as Postman and Insomnia users expect them: saved requests in the
 * sidebar (save, open, run, rename, duplicate, delete, import from curl, copy as curl),
 * environments whose `{{variables}}` main fills in when connecting (secrets masked in the UI
 * and hidden in everything the session shows), the inline mode in the connect form, and recent
 * sessions that reopen from their recordings after the host restarts.
 */

const SECRET = 'sk-e2e-CANARY-7d41';
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/** The host is shared by the run: every test starts and ends without saved requests or environments. */
async function clearWorkspace(inspector: InspectorService): Promise<void> {
  for (const saved of await inspector.listRequests()) await inspector.deleteRequest({ id: saved.id });
  for (const env of (await inspector.listEnvironments()).environments)
    await inspector.deleteEnvironment({ id: env.id });
}

/** Creates an environment through the editor: plain variables and secrets as given. */
async function createEnvironment(
  page: Page,
  name: string,
  variables: { name: string; value: string; secret?: boolean }[],
): Promise<void> {
  await page.getByTestId(TEST_IDS.environmentsButton).click();
  const dialog = page.getByTestId(TEST_IDS.environmentsDialog);
  await expect(dialog).toBeVisible();
  await dialog.getByTestId(TEST_IDS.environmentNew).click();
  await dialog.getByTestId(TEST_IDS.environmentName).fill(name);
  for (const [i, variable] of variables.entries()) {
    await dialog.getByTestId(TEST_IDS.variableAdd).click();
    const row = dialog.getByTestId(TEST_IDS.variableRow).nth(i);
    await row.getByTestId(TEST_IDS.variableName).fill(variable.name);
    if (variable.secret) await row.getByTestId(TEST_IDS.variableSecret).check();
    await row.getByTestId(TEST_IDS.variableValue).fill(variable.value);
  }
  await dialog.getByTestId(TEST_IDS.environmentSave).click();
  await expect(dialog.getByTestId(TEST_IDS.environmentTab).filter({ hasText: name })).toBeVisible();
}

test.describe('requests and environments', () => {
  test.skip(
    host !== 'browser',
    'The browser host keeps its secrets in a 0600 file; the desktop app is checked by its own suite.',
  );

  test.beforeEach(async ({ inspector }) => clearWorkspace(inspector));
  test.afterEach(async ({ inspector }) => clearWorkspace(inspector));

  test('a saved request with {{variables}} runs with the active environment; secrets stay masked everywhere', async ({
    app,
    connect,
    page,
    inspector,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const demo = await inspector.getDemoAgent();
    if (!demo) throw new Error('The e2e host runs the demo agent');

    await createEnvironment(page, 'Local', [
      { name: 'base_url', value: demo.baseUrl },
      { name: 'token', value: SECRET, secret: true },
    ]);
    const dialog = page.getByTestId(TEST_IDS.environmentsDialog);
    // The browser host says plainly how secrets are kept, and never shows the value again.
    await expect(dialog.getByTestId(TEST_IDS.secretStorage)).toContainText('stored unencrypted');
    await expect(dialog.getByTestId(TEST_IDS.secretStorage)).toContainText('mode 0600');
    const tokenValue = dialog.getByTestId(TEST_IDS.variableRow).nth(1).getByTestId(TEST_IDS.variableValue);
    await expect(tokenValue).toHaveValue('');
    await expect(tokenValue).toHaveAttribute('type', 'password');
    await expect(tokenValue).toHaveAttribute('placeholder', /kept/);
    expect(await page.content()).not.toContain(SECRET);
    await app.screenshotSizesAndThemes('17-environments');
    await tokenValue.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(TEST_IDS.environmentSelect).locator('option:checked')).toHaveText('Local');

    // The connect form: the demo's body, a URL and headers written with variables, an inline mode.
    await connect.chooseDemo({ scenario: 'tour', format: 'json' });
    await connect.url.fill('{{base_url}}/agent/run?pace=fast');
    for (const [name, value] of [
      ['Authorization', 'Bearer {{token}}'],
      ['X-Trace', 'trace-{{token}}'],
    ] as const) {
      await page.getByTestId(TEST_IDS.headerAdd).click();
      await page.getByTestId(TEST_IDS.headerName).last().fill(name);
      await page.getByTestId(TEST_IDS.headerValue).last().fill(value);
    }
    await page.getByTestId(TEST_IDS.inlineMode).selectOption('sentinel');
    await page.getByTestId(TEST_IDS.saveRequest).click();
    const items = page.getByTestId(TEST_IDS.requestItem);
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText('POST /agent/run on {{base_url}}');
    await expect(page.getByTestId(TEST_IDS.saveRequest)).toHaveText('Save request');

    // Run it from the sidebar: the server got the secret, the session shows {{token}}.
    await items.first().getByTestId(TEST_IDS.requestRun).click();
    await app.expectView('timeline');
    await app.expectState(ENDED, 60_000);
    await app.expectNoErrors();
    const [session] = await inspector.listSessions();
    if (!session) throw new Error('no session');
    expect(session.inline?.mode).toBe('sentinel');
    const detail = await inspector.getSession({ sessionId: session.id });
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    expect(detail.request?.url).toBe(`${demo.baseUrl}/agent/run?pace=fast`);
    expect(detail.request?.headers).toContainEqual(['X-Trace', 'trace-{{token}}']);
    const recording = await inspector.downloadSession({ sessionId: session.id, kind: 'recording' });
    expect(Buffer.from(recording.base64, 'base64').toString('utf8')).not.toContain(SECRET);
    const har = await inspector.downloadSession({ sessionId: session.id, kind: 'har' });
    expect(Buffer.from(har.base64, 'base64').toString('utf8')).not.toContain(SECRET);

    // Copy as curl: values filled with the secret hidden by default; with it only when asked.
    const actions = items.first().getByTestId(TEST_IDS.requestActions);
    await actions.selectOption('curl-resolved');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain(`${demo.baseUrl}/agent/run?pace=fast`);
    const resolved = await page.evaluate(() => navigator.clipboard.readText());
    expect(resolved).toContain('trace-{{token}}');
    expect(resolved).not.toContain(SECRET);
    await actions.selectOption('curl-template');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain("'{{base_url}}/agent/run?pace=fast'");
    page.once('dialog', (d) => void d.accept());
    await actions.selectOption('curl-with-secrets');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`Bearer ${SECRET}`);

    // Rename, duplicate, delete.
    await actions.selectOption('rename');
    await page.getByTestId(TEST_IDS.requestRename).fill('Tour with token');
    await page.getByTestId(TEST_IDS.requestRename).press('Enter');
    await expect(items.first()).toContainText('Tour with token');
    await actions.selectOption('duplicate');
    await expect(items).toHaveCount(2);
    await expect(items.nth(1)).toContainText('Tour with token copy');
    page.once('dialog', (d) => void d.accept());
    await items.nth(1).getByTestId(TEST_IDS.requestActions).selectOption('delete');
    await expect(items).toHaveCount(1);

    // A request that uses a variable the environment lacks is refused before connecting, naming it.
    await items.first().click();
    await app.expectView('connect');
    await expect(connect.url).toHaveValue('{{base_url}}/agent/run?pace=fast');
    await expect(page.getByTestId(TEST_IDS.inlineMode)).toHaveValue('sentinel');
    const sessionsBefore = (await inspector.listSessions()).length;
    await connect.url.fill('{{api_host}}/agent/run');
    await connect.connect();
    await expect(app.errorItems.last()).toContainText('{{api_host}}');
    await expect(app.errorItems.last()).toContainText('"Local" does not define it');
    expect(await inspector.listSessions()).toHaveLength(sessionsBefore);

    // Import from curl into the collection.
    await page
      .getByTestId(TEST_IDS.curlInput)
      .fill(`curl -N '${demo.baseUrl}/agent/run' -H 'Content-Type: application/json' -d '{"user_prompt": "hi"}'`);
    await page.getByTestId(TEST_IDS.curlImport).click();
    await expect(items).toHaveCount(2);
    await expect(items.nth(1)).toContainText('POST /agent/run on 127.0.0.1');
    await app.show('connect');
    await app.screenshotSizesAndThemes('17-requests');
  });

  test('after the host restarts: saved requests, the environment and its secret, and recent sessions reopened from their recordings', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const userData = await mkdtemp(join(tmpdir(), 'asi-e2e-restart-'));
    let running: StartedHost | null = null;
    try {
      running = await startHost(userData);
      const demo = await running.inspector.getDemoAgent();
      if (!demo) throw new Error('The restarted host runs its demo agent');
      await page.goto(running.url + '?autoconnect=0');
      const app = new AppPage(page);
      await expect(app.root).toBeVisible();
      await createEnvironment(page, 'Local', [
        { name: 'base_url', value: demo.baseUrl },
        { name: 'token', value: SECRET, secret: true },
      ]);
      await page.getByTestId(TEST_IDS.environmentsDialog).getByRole('button', { name: 'Close' }).click();
      await running.inspector.saveRequest({
        name: 'Tour',
        request: {
          url: '{{base_url}}/agent/run?pace=fast',
          method: 'POST',
          headers: [['Authorization', 'Bearer {{token}}']],
          body: { kind: 'json', text: '{"user_prompt": "tour", "scenario": "tour", "format": "xml"}' },
        },
      });
      await page.reload();
      await page.getByTestId(TEST_IDS.requestItem).first().getByTestId(TEST_IDS.requestRun).click();
      await app.expectState(ENDED, 60_000);
      const recent = page.getByTestId(TEST_IDS.recentSession);
      await expect(recent).toHaveCount(1);
      await expect(recent.first()).toContainText('Tour');
      const envelopes = await app.envelopeCount();

      await running.stop();
      running = await startHost(userData);
      await page.goto(running.url + '?autoconnect=0');
      await expect(app.root).toBeVisible();
      await expect(app.sessionItems).toHaveCount(0);
      await expect(page.getByTestId(TEST_IDS.requestItem)).toHaveText(/Tour/);
      await expect(page.getByTestId(TEST_IDS.environmentSelect).locator('option:checked')).toHaveText('Local');
      await expect(recent.first()).toContainText('Tour');
      await expect(recent.first()).toContainText('xml');
      await expect(recent.first()).toContainText(/done|truncated|ended by error|stopped/);
      await app.screenshotSizesAndThemes('17-recent-after-restart');

      // Reopened from its recording: the same envelopes, no secret in it.
      await recent.first().click();
      await app.expectView('timeline');
      await expect(app.sessionTitle).toHaveText('Tour');
      await expect.poll(() => app.envelopeCount()).toBe(envelopes);
      const [reopened] = await running.inspector.listSessions();
      expect(reopened?.source.kind).toBe('file');
      expect(JSON.stringify(await running.inspector.getSession({ sessionId: reopened?.id ?? '' }))).not.toContain(
        SECRET,
      );

      // The secret survived the restart (sealed in main's file): pointed at the new host's demo
      // agent (the token sent without a value, so main keeps it), the request runs again.
      const restartedDemo = await running.inspector.getDemoAgent();
      const [env] = (await running.inspector.listEnvironments()).environments;
      await running.inspector.saveEnvironment({
        id: env?.id ?? '',
        name: 'Local',
        variables: [
          { name: 'base_url', secret: false, value: restartedDemo?.baseUrl ?? '' },
          { name: 'token', secret: true },
        ],
      });
      await page.getByTestId(TEST_IDS.requestItem).first().getByTestId(TEST_IDS.requestRun).click();
      await expect(app.sessionItems).toHaveCount(2);
      await app.expectState(ENDED, 60_000);
      await app.expectNoErrors();
      await expect.poll(() => app.envelopeCount()).toBe(envelopes);
      const rerun = (await running.inspector.listSessions()).find((s) => s.source.kind === 'live');
      expect(rerun?.end?.kind).toBe('done');
    } finally {
      await running?.stop();
      await rm(userData, { recursive: true, force: true });
    }
  });
});

interface StartedHost {
  url: string;
  inspector: InspectorService;
  stop(): Promise<void>;
}

/** Starts a browser host of its own the way the suite starts the shared one (scripts/start.mjs), on a free port, over `userData`. */
async function startHost(userData: string): Promise<StartedHost> {
  const root = resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'scripts/start.mjs'), '--browser', '--no-build', '--port', '0'],
    {
      cwd: root,
      env: {
        ...process.env,
        STREAM_INSPECTOR_USER_DATA: userData,
        HOME: userData,
        STREAM_INSPECTOR_TOKEN: 'restart-test-token-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`The host did not start: ${output}`)), 90_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Agent Stream Inspector: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The host exited with ${code}: ${output}`)));
  });
  const handle = await connectInspector(url);
  return {
    url,
    inspector: handle.service,
    async stop() {
      handle.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
