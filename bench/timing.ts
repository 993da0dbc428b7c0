/** Timing helpers shared by the benchmarks: medians over rounds, contenders in alternation. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The clock `time` and `alternate` read: wall time, or with `--cpu` this process's CPU time
 * (user + system, every thread of it, so garbage collection counts), which other processes
 * on a busy machine do not inflate, plus that of the child processes it ran to their end
 * (on Linux, in steps of 10 ms: the CLI benchmarks time runs of a new process). CPU time
 * does not suit benchmarks that wait on a process still running (a browser).
 */
let now = (): number => performance.now();

/** Milliseconds per clock tick of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/**
 * The fields of a /proc stat file after the command name (`[0]` is proc(5)'s field 3, the
 * state): the name is in parentheses and may hold spaces, so the fields start after the last
 * `) `. Throws where the file cannot be read (not Linux, or the process ended).
 */
function statFields(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** CPU ms (utime + stime) in a stat file's fields. */
const cpuMsOf = (fields: readonly string[]): number => (Number(fields[11]) + Number(fields[12])) * TICK_MS;

/** CPU ms (utime + stime) of the process or thread whose stat file is `path`; NaN where it cannot be read. */
export function statCpuMs(path: string): number {
  try {
    return cpuMsOf(statFields(path));
  } catch {
    return Number.NaN;
  }
}

/** CPU ms of the waited-for children (cutime + cstime of /proc/self/stat); 0 elsewhere. */
function childrenCpuMs(): number {
  try {
    const fields = statFields('/proc/self/stat');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS || 0;
  } catch {
    return 0;
  }
}

/**
 * CPU ms so far of the processes this one started that are still running (its children and
 * theirs: a browser's processes), from /proc (Linux, in steps of 10 ms); NaN elsewhere.
 */
export function runningChildrenCpuMs(): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return Number.NaN;
  }
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of entries) {
    try {
      const fields = statFields(`/proc/${entry}/stat`);
      parents.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), cpuMsOf(fields));
    } catch {
      // The process ended while the list was read.
    }
  }
  let total = 0;
  for (const [pid, ms] of cpu) {
    for (let up = parents.get(pid); up !== undefined && up > 1; up = parents.get(up)) {
      if (up !== process.pid) continue;
      total += ms;
      break;
    }
  }
  return total;
}

export function useCpuClock(): void {
  now = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000 + childrenCpuMs();
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Median wall time of `runs` runs after one warm-up, in ms, and the last run's result. */
export function time<T>(fn: () => T, runs: number): { ms: number; result: T } {
  let result = fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = now();
    result = fn();
    samples.push(now() - start);
  }
  return { ms: median(samples), result };
}

export interface Alternated<A, B> {
  oursMs: number;
  floorMs: number;
  /** Median of the per-round ratios ours/floor. */
  ratio: number;
  /** Fastest and slowest round of `ours`. */
  oursMinMs: number;
  oursMaxMs: number;
  ours: A;
  floor: B;
}

/**
 * Two contenders timed in alternation after one warm-up each, so load from other processes
 * hits both alike; medians of `rounds`, and the ratio as the median of the per-round ratios.
 */
export function alternate<A, B>(ours: () => A, floor: () => B, rounds: number): Alternated<A, B> {
  const results = { ours: ours(), floor: floor() };
  const oursMs: number[] = [];
  const floorMs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let start = now();
    results.floor = floor();
    const f = now() - start;
    start = now();
    results.ours = ours();
    const o = now() - start;
    floorMs.push(f);
    oursMs.push(o);
    ratios.push(o / f);
  }
  return {
    oursMs: median(oursMs),
    floorMs: median(floorMs),
    ratio: median(ratios),
    oursMinMs: Math.min(...oursMs),
    oursMaxMs: Math.max(...oursMs),
    ...results,
  };
}
