import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { externalFixturePath, readFixture } from '../../src-main/testing/fixtures';
import { decodeBytes } from '../pipeline/session-decoder';

/**
 * The 2 KiB chunk budget is the upstream agent's JSON envelopes': they cut payloads to it, its
 * XML and raw items never are (docs/protocols/upstream-protocol.md §11). A provider's, a
 * frontend stream's or an XML item's large frame is no fault, so the statistics count nothing against the
 * budget there and say the budget does not apply.
 */

it.each([
  [
    'a recorded OpenAI Responses stream (a 3.5 KB event)',
    () => readFileSync(externalFixturePath('vercel-ai/openai-two-responses.data-only.sse')),
  ],
  ['the upstream XML format, whose items are never chunked (13.5 KB items)', () => readFixture('example_1.xml.sse')],
])('%s: nothing counted over budget, and the budget does not apply', (_name, read) => {
  const stats = decodeBytes(new Uint8Array(read())).stats;
  expect(stats.frameBytes.max).toBeGreaterThan(stats.budget);
  expect(stats.budgetApplies).toBe(false);
  expect(stats.byType.map((t) => t.overBudget)).toEqual(stats.byType.map(() => 0));
});

it('an upstream JSON capture with envelopes over 2 KiB: counted, and the budget applies', () => {
  const stats = decodeBytes(readFixture('frontend_tools_chunked.json.sse')).stats;
  expect(stats.budgetApplies).toBe(true);
  expect(stats.byType.reduce((n, t) => n + t.overBudget, 0)).toBeGreaterThan(0);
});
