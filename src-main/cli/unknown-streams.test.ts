import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIXTURES_DIR } from '../testing/fixtures';
import { runCli } from './test-io';

/** `inspect` and `check` on streams no dialect claims: what chose the dialect, the transport's end, and filters on the events' own types. */
const ticker = join(UNKNOWN_FIXTURES_DIR, 'stock-ticker.sse');
const cut = join(UNKNOWN_FIXTURES_DIR, 'ticks-cut.sse');
const FALLBACK_LINE = 'Decoded as JSON events — no dialect recognised this stream: its events are shown as they came';

describe('the CLI on a stream no dialect claims', () => {
  it('inspect says why it is decoded as generic events, and that it ended: exit 0 by default', async () => {
    const { code, out } = await runCli(['inspect', ticker]);
    expect(code).toBe(0);
    expect(out).toContain(`\n${FALLBACK_LINE}\nStatus: ended — The body ended between events, after 11 events;`);
    expect(out).toContain('Blocks (0):');
    expect(out).not.toMatch(/truncated|block\.unterminated|envelope\./);
  });

  it('inspect --json carries the reason per leg', async () => {
    const { out } = await runCli(['inspect', ticker, '--json']);
    const report = JSON.parse(out) as { formats: string[]; detections: unknown[]; status: { kind: string } };
    expect(report).toMatchObject({
      formats: ['json-events'],
      detections: [{ by: 'fallback' }],
      status: { kind: 'ended' },
    });
  });

  it('a stream cut inside an event fails --fail-on end as "cut"', async () => {
    const { code, out } = await runCli(['inspect', cut, '--fail-on', 'end']);
    expect(code).toBe(1);
    expect(out).toContain('Status: cut off — The bytes stopped inside an event after 12 complete events.');
  });

  it('inspect names a chosen format as chosen', async () => {
    const { out } = await runCli(['inspect', ticker, '--format', 'json-events']);
    expect(out).toContain('Decoded as JSON events — chosen by you');
  });

  it("check: filters match the events' own types and members, and the status is the transport's", async () => {
    const { code, out } = await runCli([
      'check',
      ticker,
      '--expect',
      'count(type == "quote") == 10',
      '--expect',
      'some type == "status" && extras.status == "market-closed"',
      '--expect',
      'none finding.severity >= "warning"',
      '--expect',
      'status == "ended"',
    ]);
    expect(out).toContain(`status ended · ${FALLBACK_LINE}`);
    expect(out).toContain('4 assertions: 4 passed, 0 failed');
    expect(code).toBe(0);
  });
});
