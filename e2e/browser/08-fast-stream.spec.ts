import { expect, test } from './fixtures';

/**
 * A fire hose: the demo agent's long answer (about 14,000 envelopes) at pace "fast". In
 * every frame while it streams, the following table has rows on screen (it used to scroll to
 * the new bottom a frame before rendering the rows there, so a fast stream showed a blank
 * table); once it ends, the last envelope is on screen.
 */
test('a fast stream: the following table keeps the newest rows on screen', async ({ app, connect, timeline, page }) => {
  await connect.chooseDemo({ scenario: 'long-answer', format: 'json', pace: 'fast' });
  await timeline.watchFrames();
  await app.watchCheckboxWrites();
  await connect.connect();
  await app.expectView('timeline');
  await app.expectState('done');
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
