import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { maxUploadBytesFrom } from './upload-limit';
import { startWebApp } from './web-app';

/**
 * Runs the inspector as a local web app until Ctrl-C: the demo agent, the session service
 * and the browser host. `npm start` uses it where Electron is missing.
 */
export interface BrowserHostRun {
  projectRoot: string;
  port?: number;
  demoAgent?: boolean;
  /** Printed above the URL: why the browser host runs instead of the desktop app. */
  reason?: string;
  /** A fixed access token (e2e runs); random per run otherwise. */
  token?: string;
  /** Files named on the command line: opened at start. */
  files?: readonly string[];
  /** `--allow-secrets-to`: origins besides this machine that requests filled with secrets may go to. */
  secretOrigins?: readonly string[];
}

/**
 * The folder for what the app keeps between runs (the recent files): STREAM_INSPECTOR_USER_DATA
 * when set — the e2e suite points it at a temp folder, as it does for the desktop app — else
 * ~/.config/agent-stream-inspector.
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['STREAM_INSPECTOR_USER_DATA'] || join(homedir(), '.config', 'agent-stream-inspector');
}

/**
 * The port `npm start`'s browser host asks for first, the same on every start (beside the
 * demo agent's 47800): the page's origin, and so what it keeps in the browser's storage,
 * survives a restart. Another process holding it gets the host any free port.
 */
export const BROWSER_HOST_PORT = 47_810;

/** How long closing the host may take after Ctrl-C or SIGTERM before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 5000;

export async function runBrowserHost(options: BrowserHostRun): Promise<void> {
  // Listening before anything starts: a signal during start-up, or the instant the URL is
  // printed, stops the host cleanly instead of killing it with its worker half started.
  const signalled = Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
  const version =
    (JSON.parse(readFileSync(join(options.projectRoot, 'package.json'), 'utf8')) as { version?: string }).version ??
    '0.0.0';
  const app = await startWebApp({
    rendererDir: join(options.projectRoot, 'out', 'renderer'),
    version,
    ...(options.port !== undefined ? { port: options.port } : { preferredPort: BROWSER_HOST_PORT }),
    ...(options.token !== undefined ? { token: options.token } : {}),
    demoAgent: options.demoAgent ?? true,
    sessionsInWorker: true,
    ...(options.files ? { files: options.files } : {}),
    ...(options.secretOrigins ? { secretOrigins: options.secretOrigins } : {}),
    maxUploadBytes: maxUploadBytesFrom(process.env),
    recentFilesPath: join(userDataDir(), 'recent-files.json'),
    userData: userDataDir(),
  });
  const lines = [
    '',
    ...(options.reason ? [options.reason, ''] : []),
    `  Agent Stream Inspector: ${app.url}`,
    ...(app.demoAgentUrl ? [`  Demo agent:             ${app.demoAgentUrl}/agent/run`] : []),
    '',
    "Open the first URL in a browser (it carries this run's access token). Ctrl-C stops.",
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await signalled;
  process.stdout.write('\nStopping…\n');
  // Shutdown always completes: a second signal ends the process at once (the listeners above
  // are gone, so the default action applies), and a close that hangs is cut short.
  const closed = await Promise.race([
    app.close().then(() => true),
    new Promise<false>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS, false).unref()),
  ]);
  if (!closed) {
    process.stderr.write(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting anyway.\n`);
    process.exit(1);
  }
}
