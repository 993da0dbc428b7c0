/**
 * How fast the CLI starts: `stream-inspector --help` and `inspect` of a small fixture, run as a
 * user runs them (a new Node process through bin/stream-inspector.mjs), against bare
 * `node -e 0` timed in alternation. The bundle (scripts/build-cli.mjs) is what `npm install`
 * leaves; the sources through tsx are what runs while a developer edits.
 * Targets: --help within 2x bare Node, inspect within 3x.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fixturePath } from '../src-main/testing/fixtures';
import type { BenchTable } from './run';
import { alternate } from './timing';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/stream-inspector.mjs');
const TARGETS = { help: 2, inspect: 3 };

function runNode(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  execFileSync(process.execPath, args, { env, stdio: 'ignore' });
  return 0;
}

export function run(): BenchTable[] {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')]);
  const fixture = fixturePath('frontend_tools.json.sse');
  const fromSource = { ...process.env, STREAM_INSPECTOR_FROM_SOURCE: '1' };
  const cases = [
    { label: '--help, bundle', args: [BIN, '--help'], env: process.env, target: TARGETS.help },
    { label: 'inspect, bundle', args: [BIN, 'inspect', fixture], env: process.env, target: TARGETS.inspect },
    { label: '--help, sources (tsx)', args: [BIN, '--help'], env: fromSource },
    { label: 'inspect, sources (tsx)', args: [BIN, 'inspect', fixture], env: fromSource },
  ];
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const c of cases) {
    const r = alternate(() => runNode(c.args, c.env), () => runNode(['-e', '0']), 15);
    rows.push([c.label, r.floorMs.toFixed(0), r.oursMs.toFixed(0), `${r.oursMinMs.toFixed(0)}–${r.oursMaxMs.toFixed(0)}`, `${r.ratio.toFixed(2)}x`]);
    if (c.target) notes.push(`${c.label}: ${r.ratio.toFixed(2)}x bare node (target <= ${c.target}x: ${r.ratio <= c.target ? 'met' : 'MISSED'})`);
  }
  return [{ title: 'CLI start-up, a new process per run (median of 15 alternating rounds)', columns: ['command', 'node -e 0 ms', 'ms', 'min–max ms', 'ratio'], rows, notes }];
}
