import { startDemoAgent, type DemoAgent } from '../../src-main/services/demo-agent/server';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * Sessions are named after what they connected to, not after the preset the form came from;
 * the user can rename one; Diff pairs only sessions that hold envelopes.
 */
let other: DemoAgent;
test.beforeAll(async () => {
  // Another agent server: a custom URL that is not the app's own demo agent.
  other = await startDemoAgent({ pace: 'fast' });
});
test.afterAll(async () => {
  await other.close();
});

test('a custom URL after the demo preset is named after its endpoint, can be renamed, and a failed run is not offered to Diff', async ({
  app,
  connect,
  diff,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await expect(app.sessionTitle).toHaveText('Demo agent: Tour · json');

  // The same form, another URL.
  await app.show('connect');
  const port = new URL(other.url).port;
  await connect.url.fill(`${other.url}/agent/run`);
  await connect.connect();
  await app.expectState(ENDED);
  await expect(app.sessionTitle).toHaveText(`POST 127.0.0.1:${port}/agent/run · tour · json`);
  await app.screenshot('13-session-named-by-endpoint');

  await app.rename('invoice run, json');
  await expect(app.sessionItem('invoice run, json')).toHaveCount(1);

  // A connection that fails before any envelope.
  await app.show('connect');
  await connect.url.fill('http://127.0.0.1:9/agent/run');
  await connect.connect();
  await app.expectState(/failed/);
  await expect(app.sessionTitle).toHaveText('POST 127.0.0.1:9/agent/run · tour · json');
  await expect(app.sessionItems).toHaveCount(3);

  await app.show('diff');
  await expect(diff.left).toBeVisible();
  const offered = async (picker: typeof diff.left) =>
    picker.locator('option').evaluateAll((options) => options.map((o) => o.textContent ?? ''));
  for (const picker of [diff.left, diff.right]) {
    const labels = await offered(picker);
    expect(labels.some((l) => l.includes('127.0.0.1:9/'))).toBe(false);
    expect(labels.some((l) => l.includes('invoice run'))).toBe(true);
  }
  await page.keyboard.press('Escape');
});
