/**
 * `npm run bench [-- FILTER…]`: runs the exported `run()` of every `bench/*.bench.ts`
 * (or only those whose file name contains one of the FILTER words) and prints the tables
 * they return. Benchmarks live here, not in the test suite: they print throughput and
 * ratios against a floor measured in the same run, and never gate CI.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** One printed table. Numbers are printed as given; format them in the bench module. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  /** Lines printed under the table: what was measured, targets met or missed. */
  notes?: string[];
}

/** What a `*.bench.ts` module exports. */
export interface BenchModule {
  run(): BenchTable[] | Promise<BenchTable[]>;
}

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const out = [`## ${table.title}`, '', line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
  if (table.notes?.length) out.push('', ...table.notes);
  return `${out.join('\n')}\n`;
}

function isBenchModule(value: unknown): value is BenchModule {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function';
}

async function main(filters: string[]): Promise<number> {
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
    console.log(`# ${file}\n`);
    try {
      const module: unknown = await import(pathToFileURL(join(BENCH_DIR, file)).href);
      if (!isBenchModule(module)) throw new Error('does not export run()');
      for (const table of await module.run()) console.log(formatTable(table));
    } catch (error) {
      failed++;
      console.error(`${file} failed:`, error);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
