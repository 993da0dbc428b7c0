/**
 * How fast the CLI starts: `stream-inspector --help` and `inspect` of a small fixture, run as a
 * user runs them (a new Node process through bin/stream-inspector.mjs), against bare
 * `node -e 0` timed in alternation. The bundle (scripts/build-cli.mjs) is what `npm install`
 * leaves; the sources through tsx are what runs while a developer edits.
 * Targets: --help within 2x bare Node, inspect within 3x; `inspect` and `check` of many files
 * in one run at least 20x faster than one run per file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath, listSseFixtures } from '../src-main/testing/fixtures';
import type { BenchOptions, BenchTable } from './run';
import { alternate } from './timing';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/stream-inspector.mjs');
const TARGETS = { help: 2, inspect: 3 };

/** Runs node with `args`; an exit code outside `ok` (check exits 1 on a failed assertion) is an error. */
function runNode(args: string[], env: NodeJS.ProcessEnv = process.env, ok: readonly number[] = [0]): number {
  const { status } = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  if (status === null || !ok.includes(status)) throw new Error(`node ${args.join(' ')} exited with ${status}`);
  return 0;
}

export function run({ quick }: BenchOptions): BenchTable[] {
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
    const r = alternate(
      () => runNode(c.args, c.env),
      () => runNode(['-e', '0']),
      15,
    );
    rows.push([
      c.label,
      r.floorMs.toFixed(0),
      r.oursMs.toFixed(0),
      `${r.oursMinMs.toFixed(0)}–${r.oursMaxMs.toFixed(0)}`,
      `${r.ratio.toFixed(2)}x`,
    ]);
    if (c.target)
      notes.push(
        `${c.label}: ${r.ratio.toFixed(2)}x bare node (target <= ${c.target}x: ${r.ratio <= c.target ? 'met' : 'MISSED'})`,
      );
  }
  return [
    {
      title: 'CLI start-up, a new process per run (median of 15 alternating rounds)',
      columns: ['command', 'node -e 0 ms', 'ms', 'min–max ms', 'ratio'],
      rows,
      notes,
    },
    manyFiles(quick),
  ];
}

/**
 * Every upstream fixture (or the 8 smallest, --quick) inspected and checked in one run against
 * one run per file: the same files, the same bundle, alternating round by round.
 */
function manyFiles(quick: boolean): BenchTable {
  const all = listSseFixtures().map(fixturePath);
  const files = quick ? [...all].sort((a, b) => statSync(a).size - statSync(b).size).slice(0, 8) : all;
  const rounds = quick ? 3 : 5;
  const commands = [
    { name: 'inspect', args: ['inspect', '--fail-on', 'none'] },
    { name: 'check', args: ['check', '--expect', 'status != "failed"'] },
  ];
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const command of commands) {
    const run = (list: string[]): number => runNode([BIN, ...command.args, ...list], process.env, [0, 1]);
    const r = alternate(
      () => files.map((file) => run([file])),
      () => run(files),
      rounds,
    );
    rows.push([command.name, files.length, r.floorMs.toFixed(0), r.oursMs.toFixed(0), `${r.ratio.toFixed(1)}x`]);
    notes.push(
      `${command.name}: one run is ${r.ratio.toFixed(1)}x faster (target >= 20x: ${r.ratio >= 20 ? 'met' : 'MISSED'})`,
    );
  }
  notes.push(
    'The difference is start-up per process, so it grows with the number of small files; what a one run adds per file is decoding it.',
  );
  return {
    title: `${files.length} files: one run against one run per file (median of ${rounds} alternating rounds)`,
    columns: ['command', 'files', 'one run ms', 'one run per file ms', 'speed-up'],
    rows,
    notes,
  };
}
