import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fixturePath, readUnknownFixture, UNKNOWN_FIXTURES_DIR } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ConnectPage } from './pages/connect-page';

/**
 * Streams no dialect claims (resources/fixtures/unknown): a capture opened as a file, and a
 * live feed from a loopback server. Each is shown event by event as generic JSON events, the
 * header says so and why, and nothing claims what the inspector cannot know: no block, no
 * error or warning, and the stream "ended" (never "truncated").
 */
const FALLBACK = /^Decoded as JSON events — no dialect recognised this stream: its events are shown as they came$/;
const TICKS = readUnknownFixture('ticks.sse');
const TICK_COUNT = Buffer.from(TICKS)
  .toString('utf8')
  .split('\n\n')
  .filter((e) => e.startsWith('data:')).length;

let server: Server | undefined;
let feedUrl = '';

test.beforeAll(async () => {
  // A tick feed sent a few events at a time, as a live feed comes.
  // The same ticks as NDJSON, one JSON value per line, at /feed/ndjson (Ollama's native API's wire),
  // and as SSE mislabelled text/plain at /feed/plain.
  server = createServer((req, res) => {
    const ndjson = req.url === '/feed/ndjson';
    const plain = req.url === '/feed/plain';
    res.writeHead(200, {
      'Content-Type': ndjson ? 'application/x-ndjson' : plain ? 'text/plain' : 'text/event-stream',
      'Cache-Control': 'no-cache',
    });
    const events = Buffer.from(TICKS)
      .toString('utf8')
      .split(/(?<=\n\n)/)
      .map((event) => (ndjson ? event.replace(/^data: (.*)\n\n$/, '$1\n') : event));
    const next = (): void => {
      const part = events.splice(0, 3).join('');
      if (part === '') res.end();
      else res.write(part, () => setTimeout(next, 30));
    };
    next();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/ticks`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** Connects to the tick feed (`path`: one of its wires), and waits until it ended. */
async function runFeed(app: AppPage, connect: ConnectPage, path = '/feed/ticks'): Promise<void> {
  await app.show('connect');
  await connect.url.fill(feedUrl.replace('/feed/ticks', path));
  await connect.run('ended');
}

test('a stock ticker capture: its own event types, no false finding, "ended"', async ({
  app,
  page,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(join(UNKNOWN_FIXTURES_DIR, 'stock-ticker.sse'));
  await app.expectView('timeline');
  await app.expectState('ended');
  await expect(app.sessionState).toHaveAttribute('title', /^The body ended between events, after 11 events;/);
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText(FALLBACK);
  await app.expectNoErrors();

  // The events keep their own types: a filter on one finds them.
  await timeline.filter('type == "quote"');
  await expect.poll(() => timeline.visibleCount()).toBe(10);
  await timeline.select(0);
  await expect(timeline.envelopeView).toContainText('"symbol": "ACME"');
  await app.screenshot('22-unknown-ticker-timeline');

  await app.show('blocks');
  await expect(blocks.empty).toBeVisible();

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['stream.format-undetected']);
  await app.screenshot('22-unknown-ticker-diagnostics');
});

test('a plain-text capture is labelled text events, not JSON events, in the header and the Blocks view', async ({
  app,
  page,
  blocks,
}) => {
  await app.openFiles(join(UNKNOWN_FIXTURES_DIR, 'plain-text.sse'));
  await app.expectState('ended');
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText(
    /^Decoded as text events — no dialect recognised this stream/,
  );
  await app.show('blocks');
  await expect(blocks.empty).toContainText('No blocks: decoded as text events');
  await app.screenshot('22-unknown-plain-text');
});

test('a live feed from a server no dialect knows: shown as it comes, "ended", and the header says why', async ({
  app,
  connect,
  page,
  timeline,
  diagnostics,
}) => {
  await runFeed(app, connect);
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText(FALLBACK);
  await timeline.expectTotalAtLeast(12);
  await app.expectNoErrors();
  await app.screenshot('22-unknown-live-timeline');

  await app.show('diagnostics');
  const rules = await diagnostics.rules();
  for (const claim of ['block.unterminated', 'envelope.missing-field', 'stream.missing-done'])
    expect(rules).not.toContain(claim);
});

test('the same feed as NDJSON (application/x-ndjson): each line one event, as it comes, "ended"', async ({
  app,
  connect,
  page,
  timeline,
}) => {
  await runFeed(app, connect, '/feed/ndjson');
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText(FALLBACK);
  await timeline.expectTotalAtLeast(TICK_COUNT);
  await app.expectNoErrors();
  await timeline.select(0);
  await expect(timeline.envelopeView).toContainText('"kind": "tick"');
  await app.screenshot('22-unknown-live-ndjson');
});

test('the same feed sent as text/plain is shown, not decoded, until "Decode any content type" is ticked', async ({
  app,
  connect,
  page,
  timeline,
}) => {
  await app.show('connect');
  await connect.url.fill(feedUrl.replace('/feed/ticks', '/feed/plain'));
  await connect.connect();
  await app.expectState('failed');
  await expect(app.sessionState).toHaveAttribute(
    'title',
    /got text\/plain \(HTTP 200\).*tick "Decode any content type"/,
  );

  await app.show('connect');
  const anyType = page.getByTestId(TEST_IDS.anyContentType);
  await expect(anyType).not.toBeChecked();
  await anyType.check();
  await app.screenshot('22-unknown-any-content-type');
  await connect.connect();
  await app.expectState('ended');
  await timeline.expectTotalAtLeast(TICK_COUNT);
});

test('the same feed decoded as chosen in "Decode as" says it was chosen', async ({ app, connect, page }) => {
  await app.show('connect');
  await connect.url.fill(feedUrl);
  await page.getByTestId(TEST_IDS.formatOverride).selectOption('json-events');
  await connect.connect();
  await app.expectState('ended');
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText('Decoded as JSON events — chosen by you');
  await app.screenshot('22-unknown-live-chosen');
});

test('an open file is decoded again with "Decode as…": chosen, then detected again, in the session’s place', async ({
  app,
  blocks,
  page,
}) => {
  await app.openCleanCapture(fixturePath('example_1.json.sse'));
  const decodedAs = page.getByTestId(TEST_IDS.statusDecodedAs);
  await expect(decodedAs).toHaveText("Decoded as JSON envelopes — from the stream's own events");
  await app.show('blocks');
  await expect(blocks.blocks.first()).toBeVisible();

  // An arrow key on the menu while it is closed chooses nothing: the session stays as it was.
  const opened = await app.sessionItems.first().getAttribute('data-session-id');
  await page.getByTestId(TEST_IDS.decodeAgainAs).focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(1000);
  await expect(app.sessionItems.first()).toHaveAttribute('data-session-id', opened!);
  await expect(decodedAs).toHaveText("Decoded as JSON envelopes — from the stream's own events");

  await page.getByTestId(TEST_IDS.decodeAgainAs).selectOption('json-events');
  await expect(decodedAs).toHaveText('Decoded as JSON events — chosen by you');
  // The same view, the new session in the old one's place, and no block claimed.
  await app.expectView('blocks');
  await expect(app.sessionItems).toHaveCount(1);
  await expect(app.sessionItem('example_1.json.sse')).toHaveCount(1);
  await expect(blocks.blocks).toHaveCount(0);
  await expect(blocks.empty).toContainText('No blocks: decoded as JSON events');
  await expect(blocks.empty).toContainText('Another format can be chosen in "Decode as…" above.');
  await app.screenshot('22-decode-again-as-chosen');

  await page.getByTestId(TEST_IDS.decodeAgainAs).selectOption('auto');
  await expect(decodedAs).toHaveText("Decoded as JSON envelopes — from the stream's own events");
  await expect(blocks.blocks.first()).toBeVisible();
  await expect(app.sessionItems).toHaveCount(1);
});

test('a live feed that ended is decoded again from what it received, with "Decode as…"', async ({
  app,
  blocks,
  connect,
  page,
  timeline,
}) => {
  await runFeed(app, connect);
  const received = await timeline.total();
  await app.show('blocks');
  await expect(blocks.empty).toContainText('If you know its format, choose it in "Decode as…" above.');

  await page.getByTestId(TEST_IDS.decodeAgainAs).selectOption('json-events');
  await expect(page.getByTestId(TEST_IDS.statusDecodedAs)).toHaveText('Decoded as JSON events — chosen by you');
  await expect(app.sessionHeader).toContainText(`received from POST ${feedUrl} (recording)`);
  await expect(app.sessionItems).toHaveCount(1);
  await app.show('timeline');
  await timeline.expectTotalAtLeast(received);
  await app.screenshot('22-decode-again-live');
});
