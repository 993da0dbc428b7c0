import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Runtime import cycles in a source tree: imports that survive compilation. `import type` and
 * `export type` are erased; with verbatimModuleSyntax `import { type A }` stays as a
 * side-effect import (`import {} from`), so it counts. A cycle makes module
 * initialisation order matter and ties two layers together; `npm test` keeps the tree free of them.
 */

const IMPORT = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'/gm;
const SIDE_EFFECT = /^\s*import\s*'([^']+)'/gm;
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The relative imports of one file that remain at run time, resolved to files. */
export function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const [, , typeOnly, , target = ''] = match;
    if (typeOnly) continue;
    found.push(target);
  }
  for (const match of text.matchAll(SIDE_EFFECT)) found.push(match[1] ?? '');
  return found.filter((t) => t.startsWith('.')).flatMap((t) => resolveImport(dirname(file), t) ?? []);
}

function resolveImport(from: string, target: string): string | null {
  const base = resolve(from, target);
  for (const ext of ['', ...EXTENSIONS]) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every cycle of runtime imports among the files under `root` (paths relative to it), each found once. */
export function findImportCycles(root: string): string[][] {
  const files = sourceFiles(root);
  const edges = new Map(files.map((f) => [f, runtimeImports(f).filter((t) => t.startsWith(root))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  // Depth-first search with an explicit stack (a deep import chain is still no recursion).
  for (const start of files) {
    if (state.has(start)) continue;
    const stack: { file: string; next: number }[] = [{ file: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const targets = edges.get(top.file) ?? [];
      if (top.next >= targets.length) {
        state.set(top.file, 'done');
        stack.pop();
        continue;
      }
      const target = targets[top.next++]!;
      const seen = state.get(target);
      if (seen === 'open') {
        const from = stack.findIndex((s) => s.file === target);
        cycles.push(stack.slice(from).map((s) => relative(root, s.file)));
      } else if (seen === undefined) {
        state.set(target, 'open');
        stack.push({ file: target, next: 0 });
      }
    }
  }
  return cycles;
}
