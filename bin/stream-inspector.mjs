#!/usr/bin/env node
// Runs the CLI bundle that `npm install` builds (scripts/build-cli.mjs) when it is at least as
// new as every source file it was built from; otherwise (a fresh edit, or no bundle yet) runs
// straight from the TypeScript sources through tsx, so the CLI never runs stale code.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'out/cli/main.mjs');

function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(root, 'out/cli/inputs.json'), 'utf8'));
    return inputs.every((file) => statSync(join(root, file)).mtimeMs <= built);
  } catch {
    return false;
  }
}

// V8 hands a function to TurboFan after a few ticks of its interrupt budget, a small one at
// once. A run of the CLI lasts a few hundred ms: most of those compiles (up to tens of ms of
// CPU each for the decoder's large functions) end too late to pay back, and `inspect` of many
// small files spent more CPU compiling than the optimised code saved. Waiting ~30x longer
// leaves the decoding of a large file as fast as before, since it runs long enough to tier up
// anyway (docs/performance.md, "CLI start-up"). Tiering heuristics only: output is the same.
setFlagsFromString('--ticks-before-optimization=100');
setFlagsFromString('--max-bytecode-size-for-early-opt=0');

let main;
if (process.env.STREAM_INSPECTOR_FROM_SOURCE !== '1' && bundleIsFresh()) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src-main/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
