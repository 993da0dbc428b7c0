/**
 * Every dialect's fuzz grammar, found in its folder: `src-shared/dialects/<folder>/fuzz.ts`
 * exports `fuzzGrammar` (a FuzzDialect) beside the module its `index.ts` exports, so a new
 * dialect's grammar takes part in the fuzz run with no line outside its folder. The folders are
 * read and imported by path, which both vitest and the Node runner of `npm run fuzz` do (Vite's
 * `import.meta.glob` would work under vitest only); the grammars stay out of the registry, which
 * production code imports.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIALECTS } from '../../src-shared/dialects/registry';
import type { DialectModule } from '../../src-shared/dialects/types';
import type { FuzzDialect } from '../../src-shared/testing/fuzz';

const ROOT = join(import.meta.dirname, '../..');
const DIALECTS_FOLDER = join(ROOT, 'src-shared/dialects');

/** What one dialect folder holds for the fuzzer. */
interface DialectFolder {
  /** Its path from the project root, for messages. */
  readonly path: string;
  /** What its index.ts exports (the dialect module among them). */
  readonly exports: readonly unknown[];
  /** Its fuzz.ts's `fuzzGrammar`, or why there is none. */
  readonly grammar: FuzzDialect | string;
}

function isGrammar(value: unknown): value is FuzzDialect {
  return typeof value === 'object' && value !== null && typeof (value as FuzzDialect).event === 'function';
}

async function importExports(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Each folder under src-shared/dialects with an index.ts (provider/, shared helpers, has none). */
async function readDialectFolders(): Promise<DialectFolder[]> {
  const folders: DialectFolder[] = [];
  for (const entry of readdirSync(DIALECTS_FOLDER, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const folder = join(DIALECTS_FOLDER, entry.name);
    const index = join(folder, 'index.ts');
    if (!entry.isDirectory() || !existsSync(index)) continue;
    const fuzz = join(folder, 'fuzz.ts');
    const path = relative(ROOT, folder);
    let grammar: FuzzDialect | string = `${path}/fuzz.ts is missing`;
    if (existsSync(fuzz)) {
      const exported = (await importExports(fuzz))['fuzzGrammar'];
      grammar = isGrammar(exported) ? exported : `${path}/fuzz.ts exports no fuzzGrammar (a FuzzDialect)`;
    }
    folders.push({ path, exports: Object.values(await importExports(index)), grammar });
  }
  return folders;
}

const FOLDERS = await readDialectFolders();

/**
 * The grammar of each of `modules`, by id in their order: from the dialect's folder, or from
 * `extra` (a test's own dialect, which has no folder). Throws naming every dialect without one.
 */
export function fuzzGrammarsOf(
  modules: readonly DialectModule[],
  extra: ReadonlyMap<DialectModule, FuzzDialect> = new Map(),
): ReadonlyMap<string, FuzzDialect> {
  const grammars = new Map<string, FuzzDialect>();
  const problems: string[] = [];
  for (const module of modules) {
    const folder = FOLDERS.find((f) => f.exports.includes(module));
    const grammar = extra.get(module) ?? folder?.grammar;
    if (isGrammar(grammar)) grammars.set(module.id, grammar);
    else
      problems.push(
        `dialect ${module.id}: ${grammar ?? 'no folder under src-shared/dialects exports its module from index.ts'}`,
      );
  }
  if (problems.length > 0)
    throw new Error(
      `every dialect needs a fuzz grammar, its folder's fuzz.ts exporting fuzzGrammar (docs/dialects.md): ${problems.join('; ')}`,
    );
  return grammars;
}

/** The grammars of the built-in dialects (throws when one has none). */
export function builtInFuzzGrammars(): ReadonlyMap<string, FuzzDialect> {
  return fuzzGrammarsOf(DIALECTS);
}
