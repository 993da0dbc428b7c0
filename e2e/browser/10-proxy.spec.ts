import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * The recording proxy started from the Connect view, with the embedded demo agent as its
 * target and Node's fetch as the frontend: the frontend's stream shows up as a session with
 * every envelope the frontend received.
 */
test('a frontend talking through the proxy shows up as a live session', async ({ app, timeline, page, inspector }) => {
  await app.show('connect');
  const panel = page.getByTestId(TEST_IDS.proxyPanel);
  await expect(page.getByTestId(TEST_IDS.proxyTarget)).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+/);
  await panel.getByTestId(TEST_IDS.proxyStart).click();
  const url = await page.getByTestId(TEST_IDS.proxyUrl).innerText();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  try {
    const response = await fetch(`${url}/agent/run?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_prompt: 'x', scenario: 'subagents' }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.status, new TextDecoder().decode(bytes.subarray(0, 500))).toBe(200);
    const received = decodeBytes(bytes).envelopes.length;
    expect(received).toBeGreaterThan(50);
    const listing = await fetch(`${url}/agent/scenarios`);
    expect(listing.status).toBe(200);

    const exchanges = page.getByTestId(TEST_IDS.proxyExchanges);
    await expect(exchanges).toContainText('GET /agent/scenarios');
    await app.screenshot('10-proxy-panel');
    await exchanges.getByRole('button', { name: 'POST /agent/run?format=json' }).click();
    await app.expectView('timeline');
    await app.expectState('done');
    await expect(timeline.count).toHaveText(`${received} envelopes`);
    await expect(app.sessionTitle).toContainText('Proxy POST /agent/run');
  } finally {
    await inspector.stopProxy();
  }
  await app.show('connect');
  await expect(page.getByTestId(TEST_IDS.proxyStart)).toBeVisible();
});
