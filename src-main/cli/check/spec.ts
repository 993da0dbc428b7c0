import { basename, dirname, extname, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { readRegularTextFile } from '../../services/importers/regular-file';
import { errorText, UsageError } from '../io';

/** One named assertion of a check. */
export interface NamedAssertion {
  readonly name: string;
  readonly expect: string;
}

/** A suite: recordings (paths already resolved) and the assertions each must pass. */
export interface CheckSuite {
  readonly name: string;
  readonly recordings: readonly string[];
  readonly assertions: readonly NamedAssertion[];
}

/**
 * Reads a spec file (YAML, or JSON, which YAML reads too):
 *
 *   recordings: [runs/*.recording]        # globs, relative to the spec file
 *   assertions:
 *     - name: ends with [DONE]
 *       expect: status == "done"
 *     - at least three text deltas: count(type == "text") >= 3   # or name: expression
 *
 * `assertions` may also be a mapping of name to expression. Several suites, each with its
 * recordings and assertions, go under `suites:` (a list of such mappings, each with a `name`).
 * A suite without `recordings` checks the recordings given on the command line.
 */
export async function loadSpec(path: string): Promise<CheckSuite[]> {
  let text: string;
  try {
    text = await readRegularTextFile(path);
  } catch (error) {
    throw new UsageError(`cannot read the spec: ${errorText(error)}`);
  }
  let data: unknown;
  try {
    // JSON is YAML; a .json file is read with JSON's rules so its errors say so.
    // yaml loads only for a YAML spec: it is the largest module check would otherwise load on every run.
    data =
      extname(path).toLowerCase() === '.json'
        ? JSON.parse(text)
        : (await import('yaml')).parse(text, yamlOptions(text));
  } catch (error) {
    throw new UsageError(`the spec ${path} does not parse: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(data))
    throw new UsageError(`the spec ${path} must be a mapping with 'assertions' (and 'recordings'), or with 'suites'`);
  if (data['suites'] === undefined) return [await readSuite(data, path, basename(path))];
  const suites = data['suites'];
  if (!Array.isArray(suites) || suites.length === 0 || !suites.every(isRecord))
    throw new UsageError(`'suites' in ${path} must be a list of mappings with name, recordings and assertions`);
  const out: CheckSuite[] = [];
  for (const [i, suite] of suites.entries())
    out.push(await readSuite(suite, path, typeof suite['name'] === 'string' ? suite['name'] : `suite ${i + 1}`));
  return out;
}

async function readSuite(data: Record<string, unknown>, path: string, name: string): Promise<CheckSuite> {
  const globs = data['recordings'] === undefined ? [] : data['recordings'];
  if (!Array.isArray(globs) || !globs.every((g) => typeof g === 'string'))
    throw new UsageError(`'recordings' in ${path} must be a list of paths or globs`);
  const recordings = await expandGlobs(globs, dirname(resolve(path)));
  return { name, recordings, assertions: readAssertions(data['assertions'], path) };
}

/**
 * Merge keys (`<<: *common`) are how CI specs share settings, so they are read, and a spec
 * may use as many aliases as it likes while what they expand to stays linear in its size:
 * yaml counts, per anchor, its uses times the aliases inside it, and that may not exceed the
 * number of characters of the text. A billion-laughs document (anchors of aliases of
 * anchors, expanding exponentially) passes that within a few levels and is refused.
 */
function yamlOptions(text: string): { merge: true; maxAliasCount: number } {
  return { merge: true, maxAliasCount: Math.max(100, text.length) };
}

function readAssertions(value: unknown, path: string): NamedAssertion[] {
  const bad = (): never => {
    throw new UsageError(
      `'assertions' in ${path} must be a list of {name, expect} (or of "name: expression"), or a mapping of name to expression`,
    );
  };
  if (isRecord(value))
    return Object.entries(value).map(([name, expect]) => (typeof expect === 'string' ? { name, expect } : bad()));
  if (!Array.isArray(value) || value.length === 0) return bad();
  return value.map((item: unknown, i) => {
    if (typeof item === 'string') return { name: item, expect: item };
    if (!isRecord(item)) return bad();
    if (typeof item['expect'] === 'string')
      return { name: typeof item['name'] === 'string' ? item['name'] : `assertion ${i + 1}`, expect: item['expect'] };
    const entries = Object.entries(item);
    if (entries.length === 1 && typeof entries[0]![1] === 'string')
      return { name: entries[0]![0], expect: entries[0]![1] };
    return bad();
  });
}

/** Paths and globs, relative to `cwd`, to sorted absolute paths; a glob that matches nothing is an error. */
export async function expandGlobs(patterns: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const pattern of patterns) {
    if (pattern === '-') {
      out.push('-');
      continue;
    }
    const found = await glob(pattern, { cwd, absolute: true, onlyFiles: true, expandDirectories: false });
    if (found.length === 0) throw new UsageError(`no file matches ${pattern}`);
    out.push(...found.sort());
  }
  return [...new Set(out)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
