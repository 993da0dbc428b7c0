/**
 * `npm run bench [-- [--quick] [--json] [--cpu] FILTER…]`: runs the exported `run()` of every
 * `bench/*.bench.ts` (or only those whose file name contains one of the FILTER words) and
 * prints the tables they return; `--json` prints one JSON object per row instead (the
 * bench, the table's title and the row's cells by column), `--quick` asks each benchmark for
 * its small sizes so the whole suite finishes in about a minute, `--cpu` times the in-process
 * benchmarks by this process's CPU time instead of wall time (for a machine other work keeps busy). Benchmarks live here, not in the test suite: they print throughput and
 * ratios against a floor measured in the same run, and never gate CI.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { useCpuClock } from './timing';

/** One printed table. Numbers are printed as given; format them in the bench module. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  /** Lines printed under the table: what was measured, targets met or missed. */
  notes?: string[];
}

export interface BenchOptions {
  /** Small sizes and fewer rounds: the suite in about a minute. */
  quick: boolean;
}

/** What a `*.bench.ts` module exports. */
export interface BenchModule {
  run(options: BenchOptions): BenchTable[] | Promise<BenchTable[]>;
}

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const out = [
    `## ${table.title}`,
    '',
    line(cells[0] ?? []),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ];
  if (table.notes?.length) out.push('', ...table.notes);
  return `${out.join('\n')}\n`;
}

function isBenchModule(value: unknown): value is BenchModule {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function';
}

/** One object per row: what `--json` prints, a line each. */
export function tableRecords(bench: string, table: BenchTable): Record<string, string | number>[] {
  return table.rows.map((row) => {
    const record: Record<string, string | number> = { bench, table: table.title };
    table.columns.forEach((column, i) => (record[column] = row[i] ?? ''));
    return record;
  });
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const options: BenchOptions = { quick: argv.includes('--quick') };
  if (argv.includes('--cpu')) useCpuClock();
  const filters = argv.filter((arg) => !arg.startsWith('--'));
  const files = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((word) => f.includes(word)))
    .sort();
  if (files.length === 0) {
    console.error(`no bench/*.bench.ts matches ${filters.join(' ') || '(any)'}`);
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    if (!json) console.log(`# ${file}\n`);
    try {
      const module: unknown = await import(pathToFileURL(join(BENCH_DIR, file)).href);
      if (!isBenchModule(module)) throw new Error('does not export run()');
      for (const table of await module.run(options)) {
        if (json) for (const record of tableRecords(file, table)) console.log(JSON.stringify(record));
        else console.log(formatTable(table));
      }
    } catch (error) {
      failed++;
      console.error(`${file} failed:`, error);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
