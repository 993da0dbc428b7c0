import { expect, test } from './fixtures';

/**
 * A fire hose: the demo agent's firehose, 20,000 envelopes a second for two seconds. In every
 * frame while it streams, the following table has rows on screen (it used to scroll to the new
 * bottom a frame before rendering the rows there, so a fast stream showed a blank table); once
 * it ends, the last envelope is on screen. Paced, so the stream lasts dozens of frames however
 * fast it is decoded: the long answer at pace "fast" (14,000 envelopes as fast as the loopback
 * carries them) came to end within two or three frames once decoding got faster.
 */
test('a fast stream: the following table keeps the newest rows on screen', async ({ app, connect, timeline, page }) => {
  await connect.chooseDemo({ scenario: 'firehose', format: 'json' });
  const url = new URL(await connect.url.inputValue());
  url.searchParams.set('rate', '20000');
  url.searchParams.set('duration', '2');
  await connect.url.fill(url.toString());
  await timeline.watchFrames();
  await app.watchCheckboxWrites();
  await connect.run('done');
  expect(await app.checkboxWrites(), 'checkbox attributes written while following').toBe(0);

  const total = await timeline.total();
  expect(total).toBeGreaterThan(10_000);
  // While rows streamed in: the state said streaming, or the table did not hold them all yet
  // (the last batches may be painted after the state says done).
  const frames = (await timeline.framesWatched()).filter(
    (frame) => frame.rows > 0 && (frame.streaming || frame.rows < total),
  );
  expect(frames.length, 'frames watched while rows streamed in').toBeGreaterThanOrEqual(3);
  expect(
    frames.filter((frame) => frame.onScreen === 0),
    'frames with rows but none on screen',
  ).toEqual([]);
  await expect.poll(async () => (await timeline.seqsOnScreen()).at(-1)).toBe(total - 1);
  await app.screenshot('08-fast-stream-end');

  // A smaller window gives the table more scroll range under an unchanged offset: it must
  // stay on the newest rows, not show the rows above them as a blank band.
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(async () => (await timeline.seqsOnScreen()).at(-1)).toBe(total - 1);
  const onScreen = await timeline.seqsOnScreen();
  expect(onScreen.length, 'rows filling the smaller table').toBeGreaterThan(10);
  expect(onScreen.at(-1)! - onScreen[0]!).toBe(onScreen.length - 1);
  await app.expectNoErrors();
});
