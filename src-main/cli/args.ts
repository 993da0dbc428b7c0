import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  DEFAULT_TOOL_TAGS,
  INLINE_MODES,
  parseToolList,
  type InlineMode,
  type InlineOptions,
} from '../../src-shared/inline/types';
import { DIALECT_REGISTRY, type DialectRegistry } from '../../src-shared/dialects/registry';
import type { FormatChoice } from '../../src-shared/pipeline/types';
import { NotRegularFileError } from '../services/importers/regular-file';
import { UsageError } from './io';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
>;

/** node:util parseArgs, with its errors turned into usage errors (exit 2). */
export function parse<T extends Options>(args: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's own advice (put an operand that starts with '-' after '--', its quote unclosed)
    // fits a typo worse than where the options are listed.
    const unknown = /^Unknown option '([^']*)'\./.exec(message);
    throw new UsageError(unknown ? `unknown option '${unknown[1]}' (--help lists this command's options)` : message);
  }
}

/**
 * `--format`: auto or the id of a registered dialect; undefined when not given, so that a file
 * that says which dialect was chosen when it was written is decoded as that one
 * (`--format auto` detects it whatever the file says: importers/types.ts, chosenFormat).
 */
export function parseFormat(
  value: string | undefined,
  dialects: DialectRegistry = DIALECT_REGISTRY,
): FormatChoice | undefined {
  if (value === undefined) return undefined;
  const formats = ['auto', ...dialects.ids];
  if (!formats.includes(value)) throw new UsageError(`--format must be one of ${formats.join(', ')}, not '${value}'`);
  return value as FormatChoice;
}

/** `--port`: a TCP port, 0 for any free one; `fallback` when not given. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port takes a number from 0 to 65535, not '${value}'`);
  return port;
}

export function singleFile(positionals: string[]): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('expected exactly one FILE (or - for stdin)');
  return positionals[0];
}

/** Characters without which no operand is a glob (tinyglobby's isDynamicPattern decides for the rest). */
const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/**
 * FILE operands: `-` (stdin, once), paths kept as typed, and globs expanded (sorted, relative
 * to `cwd` as matched). A glob that matches nothing is a usage error, not an empty run.
 */
export async function filesFrom(patterns: readonly string[], cwd: string): Promise<string[]> {
  if (patterns.length === 0) throw new UsageError('expected a FILE (or - for stdin)');
  const out: string[] = [];
  for (const pattern of patterns) {
    // The glob library loads only for an operand that may be a pattern (most runs name files).
    const globs = pattern !== '-' && GLOB_CHARACTERS.test(pattern) ? await import('tinyglobby') : null;
    if (!globs?.isDynamicPattern(pattern)) {
      out.push(pattern);
      continue;
    }
    const found = await globs.glob(pattern, { cwd, onlyFiles: true, expandDirectories: false });
    if (found.length === 0) throw new UsageError(`no file matches ${pattern}`);
    // "Files" to the glob include symlinks to devices and FIFOs, which are never read.
    for (const match of found) checkRegularFile(resolve(cwd, match), pattern);
    out.push(...found.sort());
  }
  if (out.filter((file) => file === '-').length > 1) throw new UsageError('- (stdin) can be read once');
  return [...new Set(out)];
}

function checkRegularFile(path: string, pattern: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return; // Gone or unreadable: opening it says why.
  }
  if (!stats.isFile())
    throw new UsageError(
      `${pattern} matches ${path}, which is ${new NotRegularFileError(path, stats).kind}: only regular files are read`,
    );
}

/** The options `--inline` and `--tools` add to a command that decodes. */
export const INLINE_ARGS = { inline: { type: 'string' }, tools: { type: 'string' } } as const;

/** `--har-entry N[,N…]`: which entries of a HAR file to open (their positions in `log.entries`), as legs in that order. */
export const HAR_ENTRY_ARG = { 'har-entry': { type: 'string' } } as const;

export function parseHarEntry(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(,\d+)*$/.test(value))
    throw new UsageError(`--har-entry takes an entry number, or several separated by commas, not '${value}'`);
  return value.split(',').map(Number);
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** `--inline MODE` (one of INLINE_MODES) and `--tools search:query,extract:file_path,query` (docs/inline.md). */
export function parseInline(mode: string | undefined, tools: string | undefined): InlineOptions {
  const chosen = (mode ?? 'auto') as InlineMode;
  if (!INLINE_MODES.includes(chosen))
    throw new UsageError(`--inline must be one of ${INLINE_MODES.join(', ')}, not '${mode}'`);
  if (tools === undefined) return { mode: chosen, tools: DEFAULT_TOOL_TAGS };
  const list = parseToolList(tools);
  const bad = list.flatMap((t) => [t.name, ...t.required]).find((name) => !TOOL_NAME.test(name));
  if (list.length === 0 || bad !== undefined) {
    throw new UsageError(
      `--tools takes tag names separated by commas, each with its required parameters after ':' (search:query,extract:file_path,query), not '${tools}'`,
    );
  }
  return { mode: chosen, tools: list };
}
