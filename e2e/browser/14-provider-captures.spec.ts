import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { externalFixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';

/**
 * Provider captures as other projects record them (resources/fixtures/external): events as
 * bare `data:` lines, several responses in one file, a last event with no blank line after
 * it. Each opens as its provider's stream, ends done, and the diagnostics view says what is
 * unusual about it — and nothing that is not.
 */
test('a data-only Anthropic capture is the Messages API: done at message_stop, no [DONE] or chunk-budget finding', async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openCleanCapture(externalFixturePath('vercel-ai/anthropic-text.data-only.sse'));

  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('How are you doing today?');
  await expect(blocks.ofKind('message').first()).toBeVisible();

  await app.show('diagnostics');
  await expect(diagnostics.view).toBeVisible();
  await expect(diagnostics.empty).toBeVisible();
  expect(await diagnostics.rules()).toEqual([]);
  await app.screenshot('14-capture-anthropic-data-only-diagnostics');
});

test('a capture of two OpenAI responses is two messages: done, one info finding, no sequence gap, its encrypted reasoning folded', async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(externalFixturePath('vercel-ai/openai-two-responses.data-only.sse'));
  await app.expectView('timeline');
  await app.expectState('done');

  await app.show('blocks');
  await expect(blocks.ofKind('message')).toHaveCount(2);
  await expect(blocks.ofKind('text').first()).toContainText('blue-42');
  // The first response reasoned with only its encrypted content: one redacted block, folded as thinking is.
  const redacted = blocks.ofKind('redacted_thinking');
  await expect(redacted).toHaveCount(1);
  const toggle = redacted.getByTestId('block-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(redacted).toContainText('"encrypted_content":"gAAAAABqyUi1');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toContain('provider.next-message');
  const rules = await diagnostics.rules();
  expect(rules).not.toContain('provider.sequence-gap');
  expect(rules).not.toContain('sse.oversize-line');
  expect(await diagnostics.countOf('provider.next-message')).toBe(1);
  const findings = await diagnostics.expand('provider.next-message');
  await expect(findings.first()).toContainText('begins response 2');
  await app.screenshot('14-capture-openai-two-responses-diagnostics');
});

test('a capture that ends right after its last data: line ends done, with a warning that says so', async ({
  app,
  diagnostics,
}) => {
  const text = readFileSync(externalFixturePath('vercel-ai/anthropic-text.data-only.sse'), 'utf8');
  const path = join(mkdtempSync(join(tmpdir(), 'capture-')), 'no-blank-line-at-end.sse');
  writeFileSync(path, text.slice(0, -2));
  await app.openFiles(path);
  await app.expectView('timeline');
  await app.expectState('done');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['sse.unterminated-last-event']);
  const findings = await diagnostics.expand('sse.unterminated-last-event');
  await expect(findings.first()).toContainText('An EventSource drops such an event');
});
