#!/usr/bin/env node
// `npm start`: builds the app if the sources changed since the last build, then opens the
// desktop app (which starts the embedded demo agent) — or, where the Electron binary is
// missing, the browser host, printing its URL and why.
//
// Options: --browser (use the browser host even if Electron exists), --port N (browser
// host port), --no-demo (do not start the demo agent), --no-build, --allow-secrets-to ORIGIN
// (browser host, repeatable: an origin besides this machine that requests filled with secrets
// may go to; the desktop app asks instead). Files named after the
// options are opened at start (and are files the page may reopen).
// STREAM_INSPECTOR_TOKEN fixes the browser host's access token (the e2e suite sets it).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  options: {
    browser: { type: 'boolean', default: false },
    port: { type: 'string' },
    'no-demo': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'allow-secrets-to': { type: 'string', multiple: true },
  },
  strict: true,
  allowPositionals: true,
});
const files = positionals.map((file) => resolve(file));

const OUTPUTS = ['out/main/index.js', 'out/preload/preload.cjs', 'out/renderer/index.html'];
const SOURCES = [
  'src-main',
  'src-shared',
  'src-renderer',
  'resources/icons/favicon',
  'electron.vite.config.ts',
  'package.json',
];

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function needsBuild() {
  const outputs = OUTPUTS.map((p) => join(root, p));
  if (outputs.some((p) => !existsSync(p))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  return SOURCES.map((p) => join(root, p)).some((p) => existsSync(p) && newestMtime(p) > built);
}

function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

if (!values['no-build'] && needsBuild()) {
  console.log('Building the app (electron-vite build)…');
  const code = await run(process.execPath, [
    join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
    'build',
  ]);
  if (code !== 0) {
    console.error('The build failed; see the errors above.');
    process.exit(code);
  }
}

register();
const { findElectronBinary } = await import('../src-main/web/electron-binary.ts');
const electron = findElectronBinary(root);

if (electron.found && !values.browser) {
  console.log('Opening the desktop app (it starts the demo agent and connects the first session to it)…');
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(electron.path, [root, ...files], { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const { runBrowserHost } = await import('../src-main/web/main.ts');
  const reason = values.browser
    ? 'Starting the browser host (--browser).'
    : `The desktop app cannot open here: ${electron.reason}.\nStarting the browser host instead: the same app, served to your browser from 127.0.0.1.`;
  await runBrowserHost({
    projectRoot: root,
    ...(values.port ? { port: Number(values.port) } : {}),
    demoAgent: !values['no-demo'],
    ...(process.env.STREAM_INSPECTOR_TOKEN ? { token: process.env.STREAM_INSPECTOR_TOKEN } : {}),
    reason,
    files,
    ...(values['allow-secrets-to'] ? { secretOrigins: values['allow-secrets-to'] } : {}),
  });
}
