import type { Page } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, host, test } from './fixtures';

/**
 * A curl command written with `{{variables}}` (as Postman and Insomnia export one) keeps them:
 * pasted, the URL stays `{{base_url}}/agent/run` (it became `http://{{base_url}}/agent/run`,
 * which then failed with "Could not resolve the host name http"); copied as curl and saved, the
 * variables are still there; run, the environment fills them in.
 */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

async function clearWorkspace(inspector: InspectorService): Promise<void> {
  for (const saved of await inspector.listRequests()) await inspector.deleteRequest({ id: saved.id });
  for (const env of (await inspector.listEnvironments()).environments)
    await inspector.deleteEnvironment({ id: env.id });
}

async function createEnvironment(page: Page, name: string, variable: { name: string; value: string }): Promise<void> {
  await page.getByTestId(TEST_IDS.environmentsButton).click();
  const dialog = page.getByTestId(TEST_IDS.environmentsDialog);
  await dialog.getByTestId(TEST_IDS.environmentNew).click();
  await dialog.getByTestId(TEST_IDS.environmentName).fill(name);
  await dialog.getByTestId(TEST_IDS.variableAdd).click();
  const row = dialog.getByTestId(TEST_IDS.variableRow).first();
  await row.getByTestId(TEST_IDS.variableName).fill(variable.name);
  await row.getByTestId(TEST_IDS.variableValue).fill(variable.value);
  await dialog.getByTestId(TEST_IDS.environmentSave).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
}

test.describe('curl with variables', () => {
  test.skip(host !== 'browser', 'The browser host keeps the workspace in its user-data folder');
  test.beforeEach(async ({ inspector }) => clearWorkspace(inspector));
  test.afterEach(async ({ inspector }) => clearWorkspace(inspector));

  test('a pasted curl keeps {{base_url}} through the form, copy as curl, save and run', async ({
    app,
    connect,
    page,
    inspector,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const demo = await inspector.getDemoAgent();
    if (!demo) throw new Error('The e2e host runs the demo agent');
    await createEnvironment(page, 'Local', { name: 'base_url', value: demo.baseUrl });
    await app.show('connect');
    await page
      .getByTestId(TEST_IDS.curlInput)
      .fill(
        `curl -N '{{base_url}}/agent/run?pace=fast' -H 'Content-Type: application/json' -d '{"user_prompt": "hi", "scenario": "tour", "format": "json"}'`,
      );
    await page.getByTestId(TEST_IDS.curlApply).click();
    await expect(connect.url).toHaveValue('{{base_url}}/agent/run?pace=fast');

    await page.getByTestId(TEST_IDS.formCopyCurl).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain("curl -N '{{base_url}}/agent/run?pace=fast'");

    await page.getByTestId(TEST_IDS.saveRequest).click();
    const items = page.getByTestId(TEST_IDS.requestItem);
    await expect(items).toHaveCount(1);
    const [saved] = await inspector.listRequests();
    expect(saved?.request.url).toBe('{{base_url}}/agent/run?pace=fast');
    await app.screenshot('25-curl-variables');

    await connect.run(ENDED, 60_000);
    await app.expectNoErrors();
    const [session] = await inspector.listSessions();
    expect((await inspector.getSession({ sessionId: session!.id })).request?.url).toBe(
      `${demo.baseUrl}/agent/run?pace=fast`,
    );
  });
});
