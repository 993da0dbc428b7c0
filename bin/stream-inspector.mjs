#!/usr/bin/env node
// The CLI runs straight from the TypeScript sources, so `npx stream-inspector` works in a
// fresh clone right after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
