import { Readable } from 'node:stream';
import type { CliIo, StopSignal } from './io';
import { main } from './main';

/**
 * A memoryIo for a command that serves until interrupted: `ready` resolves at its first output
 * (the banner with its URL), `interrupt` stands for Ctrl-C.
 */
export function servingIo(): {
  io: ReturnType<typeof memoryIo>;
  ready: Promise<void>;
  interrupt: (signal?: StopSignal) => void;
  /** Resolves once what the command printed passes `test` (checked at each write, not on a timer). */
  printed: (test: RegExp | ((out: string) => boolean)) => Promise<void>;
} {
  let interrupt = (_signal?: StopSignal): void => undefined;
  let started = (): void => undefined;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const interrupted = new Promise<StopSignal>((resolve) => (interrupt = (signal = 'SIGINT') => resolve(signal)));
  const io = { ...memoryIo(), interrupted: () => interrupted };
  const waiting = new Set<() => void>();
  const stdout = io.stdout;
  io.stdout = (text) => {
    stdout(text);
    started();
    for (const check of waiting) check();
  };
  const printed = (test: RegExp | ((out: string) => boolean)): Promise<void> =>
    new Promise((resolve) => {
      const passes = typeof test === 'function' ? test : (out: string) => test.test(out);
      const check = (): void => {
        if (!passes(io.out())) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { io, ready, interrupt, printed };
}

/** An in-memory CliIo for running commands in-process in tests. */
export function memoryIo(stdin: string | Uint8Array = ''): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    stdin: Readable.from([typeof stdin === 'string' ? Buffer.from(stdin) : Buffer.from(stdin)]),
    cwd: process.cwd(),
    interrupted: () => new Promise<StopSignal>(() => undefined),
    out: () => out,
    err: () => err,
  };
}

/** Runs one CLI command in-process, as a user would in `cwd` (default: this process's), with `stdin`. */
export async function runCli(
  args: string[],
  options: { cwd?: string; stdin?: string | Uint8Array } = {},
): Promise<{ code: number; out: string; err: string }> {
  const io = { ...memoryIo(options.stdin), ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}
