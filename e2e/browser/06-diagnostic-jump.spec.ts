import { readFileSync } from 'node:fs';
import { fixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { DiagnosticsPage } from './pages/diagnostics-page';

/** A finding's location as its row lists it: "bytes 12–34 · frame 5 · envelope 5". */
interface Location {
  readonly start: number;
  readonly end: number;
  readonly frame: number | null;
}

async function firstFinding(
  diagnostics: DiagnosticsPage,
  rule: string,
): Promise<{ click(): Promise<void>; at: Location }> {
  const finding = (await diagnostics.expand(rule)).first();
  const text = await finding.innerText();
  const bytes = /bytes ([\d,]+)–([\d,]+)/.exec(text);
  if (!bytes?.[1] || !bytes[2]) throw new Error(`The ${rule} finding names no byte range: “${text}”`);
  const frame = /frame ([\d,]+)/.exec(text)?.[1];
  const number = (s: string): number => Number(s.replaceAll(',', ''));
  return {
    click: () => finding.click(),
    at: { start: number(bytes[1]), end: number(bytes[2]), frame: frame ? number(frame) : null },
  };
}

/** The start of a finding's byte range in the fixture file, as text (whitespace trimmed). */
function fileText(name: string, at: Location): string {
  const text = readFileSync(fixturePath(name))
    .subarray(at.start, Math.min(at.end, at.start + 60))
    .toString('utf8')
    .trim();
  if (text === '') throw new Error(`No text at bytes ${at.start}–${at.end} of ${name}`);
  return text;
}

async function open(app: AppPage, name: string, state = 'done'): Promise<void> {
  await app.openFiles(fixturePath(name));
  await app.expectState(state);
  await app.show('diagnostics');
}

test('a finding on an envelope lands on its row, its raw bytes highlighted', async ({
  app,
  diagnostics,
  timeline,
  page,
}) => {
  await open(app, 'example_1.json.sse');
  const finding = await firstFinding(diagnostics, 'envelope.over-budget-after-escaping');
  expect(finding.at.frame).not.toBeNull();
  await finding.click();

  await app.expectView('timeline');
  await expect(timeline.selectedRow()).toHaveCount(1);
  await expect(timeline.selectedRow()).toBeInViewport();
  await expect(timeline.rawBytes).toBeVisible();
  await expect(timeline.byteHighlight).toHaveAttribute('data-start', String(finding.at.start));
  await expect(timeline.byteHighlight).toHaveAttribute('data-end', String(finding.at.end));
  await expect(timeline.rawHex).toBeVisible();
  // The dump fits the pane, its text column whole: 8 bytes a line where 16 would not fit.
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(timeline.rawHex).toHaveAttribute('data-width', '8');
    expect(await timeline.rawHex.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  }
  // Widened by its splitter, the pane shows 16 bytes a line.
  await page.setViewportSize({ width: 1440, height: 900 });
  const splitter = page.getByRole('separator', { name: 'Resize the detail pane' });
  const box = (await splitter.boundingBox())!;
  await page.mouse.move(box.x + 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x - 300, box.y + 200, { steps: 5 });
  await page.mouse.up();
  await expect(timeline.rawHex).toHaveAttribute('data-width', '16');
  expect(await timeline.rawHex.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  // The finding's bytes, as the file holds them, are on screen.
  await expect(timeline.rawText).toContainText(fileText('example_1.json.sse', finding.at));
  await app.screenshot('06-jump-to-bytes');
  // The selected row is the envelope of the frame the finding names.
  await timeline.detailTab('frame');
  await expect(timeline.frameView).toContainText(`#${finding.at.frame} of leg 0`);
});

test('a finding on a line SSE ignored lands beside it, the lost bytes highlighted', async ({
  app,
  diagnostics,
  timeline,
}) => {
  const name = 'xml_stream_examples.captured.xml.sse';
  await open(app, name);
  const finding = await firstFinding(diagnostics, 'sse.ignored-line');
  await finding.click();

  await app.expectView('timeline');
  await expect(timeline.selectedRow()).toHaveCount(1);
  await expect(timeline.selectedRow()).toBeInViewport();
  await expect(timeline.byteHighlight).toHaveAttribute('data-start', String(finding.at.start));
  // The ignored line's own bytes, as the file holds them, are in the raw view.
  await expect(timeline.rawText).toContainText(fileText(name, finding.at));
  await app.screenshot('06-jump-to-ignored-line');
});

test('a finding names its agent as the views do; the uuid stays in its detail', async ({ app, diagnostics }) => {
  await open(app, 'error_midstream.json.sse', 'ended by error');
  const finding = (await diagnostics.expand('block.unterminated')).first();
  await expect(finding).toContainText('text block #1 of main is still open');
  await expect(finding).not.toContainText('11111111-1111');
  await expect(finding).toHaveAttribute('title', /of agent 11111111-1111-4111-8111-111111111111 is still open/);
});
