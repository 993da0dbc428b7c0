import { fixturePath, listSseFixtures, readManifest } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expectationsFor, OVER_BUDGET_RULES } from '../support/fixture-expectations';
import { expect, host, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { BlocksPage } from './pages/blocks-page';
import type { DiagnosticsPage } from './pages/diagnostics-page';

/**
 * Every real upstream stream opened the way a browser-host user opens a file (the file
 * input), checked against what the fixtures' MANIFEST.json and README say about it: the
 * blocks it holds and the diagnostics its known defects must raise.
 */
const manifest = readManifest();
/** One screenshot of each view is enough; these files show the most. */
const SCREENSHOTS: Record<string, readonly ('blocks' | 'diagnostics')[]> = {
  'example_1.json.sse': ['blocks', 'diagnostics'],
  'error_midstream.json.sse': ['blocks'],
  'xml_stream_examples.captured.xml.sse': ['diagnostics'],
};

/** Files that share NAME are one run in several formats: one test per run, one step per file. */
const runs = new Map<string, string[]>();
for (const name of listSseFixtures()) {
  const run = name.slice(0, name.indexOf('.'));
  runs.set(run, [...(runs.get(run) ?? []), name]);
}

test.describe('open each upstream fixture', () => {
  for (const [run, files] of runs) {
    test(`${run}: ${files.map((f) => f.slice(run.length + 1, -'.sse'.length)).join(', ')}`, async ({
      app,
      blocks,
      diagnostics,
    }) => {
      for (const name of files) await test.step(name, () => checkFile(name, { app, blocks, diagnostics }));
    });
  }
});

test('an uploaded file does not become a recent file: its temp copy cannot be reopened', async ({ app, inspector }) => {
  test.skip(host === 'electron', 'The desktop app opens files by path: there is no upload copy.');
  const name = 'json_stream.json.sse';
  await app.openFiles(fixturePath(name));
  await app.expectState('done');
  // The host has settled the upload once the session is complete; it would have been added by then.
  expect((await inspector.listRecentFiles()).filter((path) => path.endsWith(name))).toEqual([]);
  await expect(app.page.getByTestId(TEST_IDS.recentFile).filter({ hasText: name })).toHaveCount(0);
});

async function checkFile(
  name: string,
  { app, blocks, diagnostics }: { app: AppPage; blocks: BlocksPage; diagnostics: DiagnosticsPage },
): Promise<void> {
  const entry = manifest[name];
  if (!entry) throw new Error(`${name} has no MANIFEST.json entry`);
  const expected = expectationsFor(name, entry);

  await app.openFiles(fixturePath(name));
  await app.expectView('timeline');
  await expect(app.sessionTitle).toContainText(name);
  await app.expectState(expected.endLabel);
  await app.expectNoErrors();

  await app.show('blocks');
  await expect(blocks.blocks.first()).toBeVisible();
  const kinds = new Set((await blocks.kindsAndStatuses()).map((b) => b.kind));
  for (const kind of expected.blockKinds) expect(kinds, `a ${kind} block`).toContain(kind);
  if (expected.agents !== null) expect((await blocks.counts()).agents).toBe(expected.agents);
  for (const error of expected.errorFrames) await expect(blocks.errorBlocks.filter({ hasText: error })).toHaveCount(1);
  if (expected.citations?.exactly !== undefined) await expect(blocks.citations).toHaveCount(expected.citations.exactly);
  if (expected.citations?.atLeast !== undefined) await expect(blocks.citations.first()).toBeVisible();
  if (expected.awaitsTools) await expect(blocks.awaitingBlocks).toHaveCount(1);
  if (expected.restartedBlock)
    await expect(blocks.blocks.and(app.page.locator('[data-status="abandoned"]'))).toHaveCount(1);
  if (SCREENSHOTS[name]?.includes('blocks')) await app.screenshot(`03-blocks-${name}`);

  await app.show('diagnostics');
  await expect(diagnostics.summary).toBeVisible();
  const rules = await diagnostics.rules();
  for (const [rule, count] of expected.rules) {
    expect(rules, `the ${rule} finding`).toContain(rule);
    if (count.exactly !== undefined) expect(await diagnostics.countOf(rule), `${rule} findings`).toBe(count.exactly);
    if (count.atLeast !== undefined)
      expect(await diagnostics.countOf(rule), `${rule} findings`).toBeGreaterThanOrEqual(count.atLeast);
  }
  for (const rule of expected.absentRules) expect(rules, `no ${rule} finding`).not.toContain(rule);
  if (expected.overBudgetEnvelopes !== null) {
    let overBudget = 0;
    for (const rule of OVER_BUDGET_RULES) if (rules.includes(rule)) overBudget += await diagnostics.countOf(rule);
    expect(overBudget, 'envelopes over the 2048-byte budget').toBe(expected.overBudgetEnvelopes);
  }
  // The 2 KiB budget and the escaping it is measured after are the JSON envelopes' alone: XML
  // and raw items are never cut to it (docs/protocols/upstream-protocol.md §11), so their
  // charts draw no budget line and no escaping share.
  if (entry.kind !== 'captured') {
    const json = entry.kind === 'json';
    await expect(diagnostics.frameSizeChart).toContainText(
      json ? 'Red line: the upstream chunk budget' : 'No chunk budget applies',
    );
    await expect(diagnostics.overheadChart.getByText('JSON escaping', { exact: true })).toHaveCount(json ? 1 : 0);
    await expect(diagnostics.overheadChart.getByText(/what JSON escaping added/)).toHaveCount(json ? 1 : 0);
  }
  if (SCREENSHOTS[name]?.includes('diagnostics')) await app.screenshot(`03-diagnostics-${name}`);
}
