import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';

/**
 * Protocols the model writes inside its text (docs/inline.md): the demo agent's scenarios
 * whose text blocks carry XML tool tags, segment tags or sentinels, in each wire format. The
 * blocks view shows each text block as its segments, with a toggle to the raw text; the mode
 * can change for an open session; the timeline filters by segment type.
 */

/** Captures of the inline protocols (resources/fixtures/inline/README.md). */
const INLINE_FIXTURES = join(import.meta.dirname, '../../resources/fixtures/inline');

/** Screenshots of the view at both window sizes, light and dark. */
async function screenshots(app: AppPage, page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await app.screenshot(`${name}-${width}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('XML tool tags: reasoning, tool calls with their parameters and the completion, with the raw text a click away', async ({
  app,
  connect,
  blocks,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'inline-xml', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  await app.show('blocks');

  const texts = blocks.ofKind('text');
  await expect(texts).toHaveCount(3);
  await expect
    .poll(() => blocks.segmentTypes(texts.nth(0)))
    .toEqual([
      { type: 'reasoning', complete: true },
      { type: 'tool_call', complete: true },
    ]);
  const search = blocks.segmentsOf(texts.nth(0), 'tool_call');
  await expect(blocks.segmentDetail(search, 'name')).toHaveText('search');
  await expect(blocks.segmentDetail(search, 'params')).toContainText('login user function');
  await expect(blocks.segmentDetail(search, 'params')).toContainText('./src/auth');
  // Reasoning is collapsed to one line; the tool call's markup is not shown as text.
  await expect(blocks.segmentsOf(texts.nth(0), 'reasoning').locator('pre')).toBeHidden();
  expect(await search.innerText()).not.toContain('</query>');

  await expect(blocks.segmentDetail(blocks.segmentsOf(texts.nth(1), 'tool_call'), 'params')).toContainText(
    'src/auth/login.js#loginUser',
  );
  const completion = blocks.segmentsOf(texts.nth(2), 'completion');
  await expect(completion).toContainText('credentials & issues a session token');

  await blocks.showRaw(texts.nth(0), true);
  await expect(blocks.rawText(texts.nth(0))).toContainText('<query>login user function</query>');
  await expect(blocks.segmentsOf(texts.nth(0))).toHaveCount(0);
  await blocks.showRaw(texts.nth(0), false);
  await expect(blocks.segmentsOf(texts.nth(0))).toHaveCount(2);
  await app.expectNoErrors();
  await screenshots(app, page, '09-inline-xml');
});

test('segment tags, in the XML wire format: file writes as code under their path, bash commands, a generic tool', async ({
  app,
  connect,
  blocks,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'inline-segments', format: 'xml', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  await app.show('blocks');

  const texts = blocks.ofKind('text');
  await expect(texts).toHaveCount(2);
  await expect
    .poll(async () => (await blocks.segmentTypes(texts.nth(0))).map((s) => s.type))
    .toEqual(['text', 'write_file', 'text', 'run_bash']);
  const file = blocks.segmentsOf(texts.nth(0), 'write_file');
  await expect(blocks.segmentDetail(file, 'path')).toHaveText('scripts/hello.py');
  await expect(blocks.segmentDetail(file, 'code')).toContainText('if len(sys.argv) < 2:');
  await expect(blocks.segmentDetail(blocks.segmentsOf(texts.nth(0), 'run_bash'), 'code')).toContainText(
    'python scripts/hello.py World',
  );

  await expect
    .poll(async () => (await blocks.segmentTypes(texts.nth(1))).map((s) => s.type))
    .toEqual(['text', 'write_file', 'patch_file', 'run_bash', 'tool_call']);
  const tool = blocks.segmentsOf(texts.nth(1), 'write_file');
  await expect(blocks.segmentDetail(tool, 'path')).toHaveText('tests/test_hello.py');
  // Only the content between the raw markers: no markers, no markup, the `</arg>` kept as content.
  const code = blocks.segmentDetail(tool, 'code');
  await expect(code).toContainText('assert main() == 1  # </arg> here is file content');
  await expect(code).not.toContainText('__START_CONTENT__');
  await expect(blocks.segmentDetail(blocks.segmentsOf(texts.nth(1), 'patch_file'), 'code')).toContainText(
    '+++ b/scripts/hello.py',
  );
  const readFile = blocks.segmentsOf(texts.nth(1), 'tool_call');
  await expect(blocks.segmentDetail(readFile, 'name')).toHaveText('read_file');
  await expect(blocks.segmentDetail(readFile, 'params')).toContainText('README.md');
  await app.expectNoErrors();
  await screenshots(app, page, '09-inline-segments');
});

test('sentinels, in the raw Anthropic format: segments typed by their JSON headers', async ({
  app,
  connect,
  blocks,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'inline-sentinels', format: 'raw', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  await app.show('blocks');

  const text = blocks.ofKind('text').first();
  await expect
    .poll(async () => (await blocks.segmentTypes(text)).map((s) => s.type))
    .toEqual(['reasoning', 'text', 'write_file', 'text', 'run_bash']);
  await expect(blocks.segmentDetail(blocks.segmentsOf(text, 'write_file'), 'path')).toHaveText('config/app.json');
  await expect(blocks.segmentDetail(blocks.segmentsOf(text, 'write_file'), 'code')).toContainText(
    '"hosts": [["localhost", "127.0.0.1"]]',
  );
  await expect(blocks.segmentsOf(text, 'run_bash')).toContainText('[["deploy"]]');
  await expect(text).not.toContainText('SEG_START');
  await app.expectNoErrors();
  await screenshots(app, page, '09-inline-sentinels');
});

for (const { scenario, format, rules, unclosed } of [
  {
    scenario: 'inline-malformed-xml',
    format: 'json',
    rules: [
      'inline.mismatched-close',
      'inline.missing-param',
      'inline.multiple-actions',
      'inline.no-action',
      'inline.text-after-action',
      'inline.unclosed',
    ],
    unclosed: 'tool_call',
  },
  {
    scenario: 'inline-malformed-segments',
    format: 'xml',
    rules: ['inline.mismatched-close', 'inline.missing-param', 'inline.unclosed'],
    unclosed: 'write_file',
  },
  {
    scenario: 'inline-malformed-sentinels',
    format: 'raw',
    rules: ['inline.invalid-sentinel', 'inline.unclosed'],
    unclosed: 'write_file',
  },
] as const) {
  test(`${scenario}: the broken protocol is shown as received and explained`, async ({
    app,
    connect,
    blocks,
    diagnostics,
    page,
  }) => {
    await connect.chooseDemo({ scenario, format, pace: 'fast' });
    await connect.connect();
    await app.expectState('done');
    await app.show('blocks');
    const unclosedSegment = blocks.segmentsOf(page, unclosed).and(page.locator('[data-complete="false"]'));
    await expect(unclosedSegment).toHaveCount(1);
    await expect(unclosedSegment).toContainText('unclosed');
    await screenshots(app, page, `09-${scenario}`);

    await app.show('diagnostics');
    await expect
      .poll(async () => (await diagnostics.rules()).filter((r) => r.startsWith('inline.')).sort())
      .toEqual([...rules].sort());
  });
}

test('the inline mode of an open session', async ({ app, connect, blocks, diagnostics }) => {
  await connect.chooseDemo({ scenario: 'inline-malformed-xml', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');

  await app.show('blocks');
  await expect(blocks.segmentsOf(blocks.ofKind('text').first())).not.toHaveCount(0);
  await blocks.inlineMode.selectOption('off');
  await expect(blocks.segments).toHaveCount(0);
  await expect(blocks.ofKind('text').first()).toContainText('<search>');
  await app.show('diagnostics');
  await expect.poll(async () => (await diagnostics.rules()).filter((r) => r.startsWith('inline.'))).toEqual([]);

  await app.show('blocks');
  await blocks.inlineMode.selectOption('auto');
  // Without `search` among the tool tags, <search> is text; <extract> stays a tool call.
  await blocks.inlineTools.fill('extract:file_path');
  await blocks.inlineTools.press('Enter');
  await expect
    .poll(async () => (await blocks.segmentTypes(blocks.ofKind('text').first())).map((s) => s.type))
    .toEqual(['reasoning', 'text', 'tool_call']);
  await app.show('diagnostics');
  await expect
    .poll(async () => (await diagnostics.rules()).filter((r) => r.startsWith('inline.')).sort())
    .toEqual(['inline.no-action']);
  await app.expectNoErrors();
});

test('a segment-event stream: one block per segment, shown as the inline stage shows its segments', async ({
  app,
  connect,
  blocks,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'inline-segments', format: 'json', pace: 'fast' });
  // The demo agent's segment-event endpoint: the same scenario's text, parsed on the server.
  await connect.url.fill((await connect.url.inputValue()).replace('/agent/run', '/segments/run'));
  await connect.connect();
  await app.expectState('done');
  await expect(app.sessionHeader).toContainText("Decoded as Segment events — from the stream's own events");

  await app.show('blocks');
  const cards = blocks.ofKind('segment');
  await expect(cards).toHaveCount(9);
  await expect
    .poll(() => blocks.segmentTypes())
    .toEqual(
      ['text', 'write_file', 'text', 'run_bash', 'text', 'write_file', 'patch_file', 'run_bash', 'tool_call'].map(
        (type) => ({ type, complete: true }),
      ),
    );
  const file = blocks.segmentsOf(cards.nth(1), 'write_file');
  await expect(blocks.segmentDetail(file, 'path')).toHaveText('scripts/hello.py');
  await expect(blocks.segmentDetail(file, 'code')).toContainText('def main() -> int:');
  await expect(blocks.segmentDetail(blocks.segmentsOf(cards.nth(8), 'tool_call'), 'name')).toHaveText('read_file');
  await app.expectNoErrors();
  await screenshots(app, page, '09-segment-events');
});

test('a live text block holds back a marker until the next delta decides it', async ({
  app,
  connect,
  blocks,
  replay,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'inline-xml', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  // Replayed one envelope at a time, the first text block streams as it did live. (The fast
  // run replays in a blink: seeking back to the start leaves it paused there.)
  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  await app.show('blocks');

  // meta_init, then the first delta: "<thin", which may become <thinking>.
  await replay.seekTo(2);
  await expect(replay.controls).toHaveAttribute('data-playing', 'false');
  const text = blocks.ofKind('text').first();
  await expect(text).toHaveAttribute('data-live', 'true');
  await expect(text.getByText('5 chars held back')).toBeVisible();
  await expect(text).not.toContainText('<thin');
  await app.screenshot('09-holdback-partial-open');

  // "king>User wants to understand the", then "…login flow. I should search for relevant code.</thi": the
  // reasoning streams, its closing tag's start held back.
  for (let position = 3; position <= 8; position++) {
    await replay.step();
    await expect(replay.controls).toHaveAttribute('data-position', String(position));
    const content = await text.innerText();
    expect(content).not.toMatch(/<\/?t(h(i(n(k(i(n(g)?)?)?)?)?)?)?$/m);
    expect(content).not.toContain('<thinking');
  }
  await expect(blocks.segmentsOf(text, 'reasoning')).toHaveCount(1);
  await app.screenshot('09-holdback-streaming');

  await replay.play();
  await expect(replay.finished).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => blocks.segmentTypes(text))
    .toEqual([
      { type: 'reasoning', complete: true },
      { type: 'tool_call', complete: true },
    ]);
  await expect(page.getByText('held back')).toHaveCount(0);
});

test('JSON tool calls in a capture: the json mode of the Blocks toolbar reads them, and a call cut off is explained', async ({
  app,
  blocks,
  diagnostics,
  page,
}) => {
  // Text blocks whose tool calls are JSON (a Hermes <tool_call>, then a bare object the model
  // stopped writing): the default mode shows them as text.
  await app.openFiles(join(INLINE_FIXTURES, 'json-tool-calls.json.sse'));
  await app.expectState('done');
  await app.show('blocks');
  const texts = blocks.ofKind('text');
  await expect(texts).toHaveCount(2);
  await expect(texts.nth(0)).toContainText('<tool_call>');
  await expect(blocks.segmentsOf(page, 'tool_call')).toHaveCount(0);

  await blocks.inlineMode.selectOption('json');
  await expect
    .poll(() => blocks.segmentTypes(texts.nth(0)))
    .toEqual([
      { type: 'text', complete: true },
      { type: 'tool_call', complete: true },
    ]);
  const weather = blocks.segmentsOf(texts.nth(0), 'tool_call');
  await expect(blocks.segmentDetail(weather, 'name')).toHaveText('get_current_weather');
  await expect(blocks.segmentDetail(weather, 'params')).toContainText('Boston, MA');
  await expect(texts.nth(0)).not.toContainText('<tool_call>');
  const cut = blocks.segmentsOf(texts.nth(1), 'tool_call');
  await expect(cut).toHaveAttribute('data-complete', 'false');
  await expect(blocks.segmentDetail(cut, 'name')).toHaveText('read_file');
  await expect(blocks.segmentDetail(cut, 'params')).toContainText('config/app.json');
  await screenshots(app, page, '09-inline-json');

  await app.show('diagnostics');
  await expect
    .poll(async () => (await diagnostics.rules()).filter((r) => r.startsWith('inline.')))
    .toEqual(['inline.unclosed']);
  await app.expectNoErrors();
});
