import { app, BrowserWindow } from 'electron';
import type { HostCommand } from '../../src-shared/contract/payloads';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoAgent } from '../services/demo-agent/index';
import { startEmbeddedDemoAgent } from '../hosts/embedded-demo-agent';
import { composeInspector } from '../hosts/compose';
import { createPathAccess, guardPaths } from '../hosts/path-guard';
import { createRecentFiles, trackOpenedFiles, withoutFilesIn } from '../hosts/recent-files';
import { createWorkspace, workspacePaths } from '../services/requests/workspace';
import { safeStorageCipher } from './safe-storage';
import { confirmSecretOrigin, DESKTOP_HOW_TO_ALLOW } from './secret-consent';
import { createSecretOriginGate } from '../services/requests/secret-origins';
import { startSessionWorker } from '../services/sessions/worker/worker-client';
import { APP_ORIGIN, enforceCspOn, isAppUrl, registerAppScheme, serveRenderer } from './app-protocol';
import { createElectronHost } from './host-commands';
import { registerContract, registerDroppedFiles } from './ipc';
import { installMenu } from './menu';
import { samplesDir, windowIconPath } from './resources';
import { createMainWindow } from './window';
import { terminalSafe } from '../../src-shared/text/terminal';

/**
 * The desktop app: one window on the renderer, the session service and the embedded demo
 * agent in main, wired through the contract. Everything here is wiring; behaviour lives in
 * the services, which run (and are tested) without Electron.
 */

const here = dirname(fileURLToPath(import.meta.url));
const devServer = process.env['ELECTRON_RENDERER_URL'];
const appUrl = (url: string): boolean => isAppUrl(url, devServer);

registerAppScheme();

// Tests run each app in a fresh user-data folder (window state, recent files).
const userDataOverride = process.env['STREAM_INSPECTOR_USER_DATA'];
if (userDataOverride) app.setPath('userData', userDataOverride);
// Tests start from an empty app: no demo session connected on the first start.
const entryQuery = process.env['STREAM_INSPECTOR_AUTOCONNECT'] === '0' ? '?autoconnect=0' : '';

/**
 * Files the system asks the app to open (macOS `open-file`: a double-clicked `.recording` or
 * `.sse`, or one dropped on the Dock icon). It can fire before the app is ready, so it is
 * registered at once and the paths wait until the window has loaded.
 */
const waitingPaths: string[] = [];
let openWhenReady: ((path: string) => void) | null = null;
app.on('open-file', (event, path) => {
  event.preventDefault();
  if (openWhenReady) openWhenReady(path);
  else waitingPaths.push(path);
});

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

/** Files named on a command line (existing regular files only; flags and the app path are skipped). */
function filesIn(argv: readonly string[], cwd: string): string[] {
  return argv
    .slice(1)
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => resolve(cwd, arg))
    .filter(
      (path) =>
        existsSync(path) && statSync(path).isFile() && !path.endsWith('.js') && path !== resolve(app.getAppPath()),
    );
}

async function start(): Promise<void> {
  await app.whenReady();
  const userData = app.getPath('userData');
  const paths = workspacePaths(userData);
  const recentFiles = withoutFilesIn(createRecentFiles(join(userData, 'recent-files.json')), paths.recentSessions);

  let demo: DemoAgent | null = null;
  try {
    demo = await startEmbeddedDemoAgent();
  } catch (error) {
    console.error(`The demo agent did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const demoUrl = demo?.url ?? null;

  const refreshMenu = async (): Promise<void> => installMenu(await recentFiles.list(), menuActions);
  // Connections, decoding and the session store run in a worker: this thread answers IPC.
  const worker = startSessionWorker({
    entry: new URL('./session-worker.js', import.meta.url),
    demoAgentUrl: demoUrl,
    onError: (error) => console.error(`Session worker: ${terminalSafe(error.message)}`),
  });
  const sessions = worker.service;
  trackOpenedFiles(sessions.onSessionsChanged, recentFiles, () => void refreshMenu());
  const host = createElectronHost(sessions, recentFiles, samplesDir());
  // The renderer may open only files the user chose and never names a file to write.
  const access = createPathAccess({
    recentFiles,
    howToOpen: 'Open it with File › Open, drop it on the window, or name it on the command line.',
  });
  const workspace = createWorkspace({
    userData,
    cipher: safeStorageCipher(paths.environments),
    secretOrigins: createSecretOriginGate(confirmSecretOrigin, DESKTOP_HOW_TO_ALLOW),
    sessions,
    spoolDir: worker.spoolDir,
    demoUrl,
    onError: (error) =>
      console.error(
        `Keeping a recent session failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}`,
      ),
  });
  const inspector = guardPaths(composeInspector(sessions, host, workspace), access);
  const ipcOptions = {
    isAppUrl: appUrl,
    log: (m: string) => console.warn(terminalSafe(m)),
    onBackpressure: (held: boolean) => worker.holdBatches(held),
  };
  const unregisterContract = registerContract(inspector, ipcOptions);
  const unregisterDrops = registerDroppedFiles((path) => access.grantRead(path), ipcOptions);
  const unregister = (): void => {
    unregisterContract();
    unregisterDrops();
  };

  const openPath = (path: string): void => {
    sessions
      .openFile({ path })
      .then((summary) => host.commands.fire({ kind: 'select-session', sessionId: summary.id }))
      .catch((error: unknown) => console.error(terminalSafe(error instanceof Error ? error.message : String(error))));
  };
  const openSample = (id: string): void => {
    host
      .openSample({ id })
      .then(([first]) => first && host.commands.fire({ kind: 'select-session', sessionId: first.id }))
      .catch((error: unknown) => console.error(error instanceof Error ? error.message : String(error)));
  };
  const menuActions = {
    open: () => void host.openWithDialog().catch((error: unknown) => console.error(error)),
    openPath,
    openSample,
    send: (command: HostCommand) => host.commands.fire(command),
    isDev: devServer !== undefined || !app.isPackaged,
  };
  await refreshMenu();

  if (devServer) enforceCspOn(new URL(devServer).origin);
  else serveRenderer(join(here, '../renderer'));

  const window = createMainWindow({
    preload: join(here, '../preload/preload.cjs'),
    url: `${devServer ?? `${APP_ORIGIN}/index.html`}${entryQuery}`,
    statePath: join(userData, 'window-state.json'),
    icon: windowIconPath(),
    isAppUrl: appUrl,
    log: (m) => console.warn(m),
  });
  window.webContents.once('did-finish-load', () => {
    openWhenReady = openPath;
    // Files named on the command line (Windows and Linux file associations pass them so) and those macOS asked for early.
    for (const path of [...filesIn(process.argv, process.cwd()), ...waitingPaths.splice(0)]) openPath(path);
  });

  app.on('second-instance', (_event, argv, cwd) => {
    const main = BrowserWindow.getAllWindows()[0];
    if (main) {
      if (main.isMinimized()) main.restore();
      main.focus();
    }
    for (const path of filesIn(argv, cwd)) openPath(path);
  });
  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    unregister();
    // The sessions still running end (stopped) first, and are kept in recent sessions.
    void Promise.allSettled([worker.dispose().then(() => workspace.dispose()), demo?.close()]).finally(() =>
      app.quit(),
    );
  });
}
