import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * The search box finds what the agent said, not only what one envelope carried: "Eiffel"
 * arrived as "The E" + "iffel Tower…" and lands on both envelopes.
 */
test('searching a word the stream split across envelopes lands on every envelope that carries it', async ({
  app,
  connect,
  timeline,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  // The answer's words as they arrived: no single envelope holds "Eiffel".
  await expect(timeline.row(22)).toContainText('The E');
  await expect(timeline.row(23)).toContainText('iffel Tower');

  // A quoted string searches text (docs/filters.md); the box takes the filter language.
  await timeline.filterText.fill('"Eiffel"');
  await expect(timeline.count).toContainText(/of 55 envelopes/);
  await expect(timeline.row(22)).toBeVisible();
  await expect(timeline.row(23)).toBeVisible();
  // Rows without any part of it are filtered out.
  await expect(timeline.row(1)).toHaveCount(0);
  await app.screenshot('13-search-split-word');
  await app.expectNoErrors();
});
