#!/usr/bin/env node
// Bundles the CLI (src-main/cli) into out/cli so `stream-inspector` starts without compiling
// TypeScript on every run. Runs at install time (`prepare`) and before the tests; the list of
// source files it was built from goes beside it so bin/stream-inspector.mjs can tell a bundle
// that is older than the sources and fall back to them.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir DIR` builds elsewhere (the bundle test builds into a temp folder).
const outdirFlag = process.argv.indexOf('--outdir');
const outdir =
  outdirFlag > 0 && process.argv[outdirFlag + 1] ? resolve(process.argv[outdirFlag + 1]) : join(root, 'out/cli');

// Chunk names carry content hashes: clear the folder so old chunks do not pile up.
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // The span pool's thread (src-main/services/parallel/span-pool.ts) loads span-worker.mjs from beside its chunk.
  entryPoints: { main: 'src-main/cli/main.ts', 'span-worker': 'src-main/services/parallel/span-worker.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // Commands load lazily (main.ts imports them on demand): keep that with one chunk each.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Runtime dependencies resolve from node_modules as usual; only the project's code is bundled.
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
});

const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, join(root, file)));
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'inputs.json'), `${JSON.stringify(inputs)}\n`);
