import type { Readable } from 'node:stream';
import { stringifyJson } from '../../src-shared/json/tree';
import { terminalSafe } from '../../src-shared/text/terminal';
import type { DialectRegistry } from '../../src-shared/dialects/registry';
import type { SourceFs } from '../services/importers/source-file';
import { fileErrorText } from '../services/storage/file-error';

/** What a command may touch, injected so tests run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: Readable;
  cwd: string;
  /**
   * Resolves, with the signal, when the user (Ctrl-C: SIGINT) or the system (SIGTERM: a service
   * manager, `kill`) asks the command to stop; long-running commands stop on it. Listening starts
   * at the first call, so a command that never asks keeps Node's default: the signal ends it.
   */
  interrupted: () => Promise<StopSignal>;
  /** The dialects to decode with; the built-in registry when absent (tests register their own). */
  dialects?: DialectRegistry;
  /** What input files are read through; the disk when absent (tests count what a command reads). */
  fs?: SourceFs;
  /**
   * Draws the one progress line of a long command in place (null clears it). Present only
   * when stderr is a terminal (progress.ts, showsProgress): piped output never gets one.
   */
  progress?: (line: string | null) => void;
  /**
   * Resolves once what was printed has gone on to stdout's reader, or at once when little is
   * waiting. A pipe takes writes asynchronously: a command that prints as it reads waits for
   * this between chunks, so a slow reader (`frames --json big.sse | jq …`) holds the command
   * back instead of the output piling up in its memory. Absent: nothing waits (tests' io).
   */
  drained?: () => Promise<void>;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** A command returns its exit code: 0 ok, 1 findings (e.g. error diagnostics), 2 usage or I/O error. */
export type Command = (args: string[], io: CliIo) => Promise<number>;

/** Prints `lines` and a Ctrl-C hint, serves until the user interrupts, then stops the server. */
export async function serveUntilInterrupted(
  io: CliIo,
  lines: readonly string[],
  server: { close(): Promise<void> },
): Promise<number> {
  io.stdout([...lines, 'Press Ctrl-C to stop.', ''].join('\n'));
  await io.interrupted();
  await server.close();
  return 0;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The io every command gets: all it prints passes through terminalSafe, so no control
 * character from a stream or a server reaches the terminal raw, whichever printer wrote it.
 */
export function terminalIo(io: CliIo): CliIo {
  const progress = io.progress;
  return {
    ...io,
    stdout: (text) => io.stdout(terminalSafe(text)),
    stderr: (text) => io.stderr(terminalSafe(text)),
    ...(progress
      ? { progress: (line) => progress(line === null ? null : terminalSafe(line, { multiline: false })) }
      : {}),
  };
}

/**
 * Prints one JSON document (pretty unless `indent` is 0), its control characters escaped the
 * JSON way (`\u001b`), so the output stays valid JSON with the same values.
 */
export function printJson(io: CliIo, value: unknown, indent = 2): void {
  io.stdout(`${terminalSafe(stringifyJson(value, { indent }) ?? 'null', { json: true })}\n`);
}

/** An error in words; a file system error names its path first (fileErrorText). */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return fileErrorText(error) ?? error.message;
}
