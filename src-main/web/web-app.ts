import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmitter } from '../../src-shared/contract/emitter';
import type { HostCommand } from '../../src-shared/contract/payloads';
import type { DemoAgent } from '../services/demo-agent/index';
import { startEmbeddedDemoAgent } from '../hosts/embedded-demo-agent';
import { composeInspector, type HostCommands, type SessionCommands } from '../hosts/compose';
import { createDefaultSessionService } from '../hosts/default-service';
import { PROJECT_SAMPLES_DIR, sampleCommands } from '../services/samples/sample-commands';
import { demoAgentInfo } from '../services/sessions/demo-agent-info';
import { createRecentFiles, trackOpenedFiles, withoutFilesIn, type RecentFiles } from '../hosts/recent-files';
import { plainSecrets } from '../services/requests/secret-cipher';
import { createWorkspace, workspacePaths } from '../services/requests/workspace';
import {
  approveFromStartup,
  BROWSER_HOST_HOW_TO_ALLOW,
  createSecretOriginGate,
} from '../services/requests/secret-origins';
import { createPathAccess, guardPaths } from '../hosts/path-guard';
import type { SessionService, SessionServiceDeps } from '../services/sessions/session-service';
import { startSessionWorker } from '../services/sessions/worker/worker-client';
import { startBrowserHost, type BrowserHost } from './browser-host';
import { DEFAULT_MAX_UPLOAD_BYTES, limitUploads } from './upload-limit';

/**
 * The inspector as a local web app: the session service, optionally the demo agent, and the
 * browser host serving both. What `npm start` runs where Electron is missing, and what the
 * browser e2e suite drives.
 */
export interface WebAppOptions {
  rendererDir: string;
  port?: number;
  /** Without `port`: the port to ask for first (BrowserHostOptions.preferredPort). */
  preferredPort?: number;
  token?: string;
  version?: string;
  /** Start the embedded demo agent (default true), or use one that is already running. */
  demoAgent?: boolean | { url: string };
  demoAgentPort?: number;
  /** The largest upload the page may send (upload-limit.ts); 4 GiB by default. */
  maxUploadBytes?: number;
  /** The shipped sample recordings; the project's resources/samples by default. */
  samplesDir?: string;
  /** Where the recent files are kept; in memory when not given. */
  recentFilesPath?: string;
  /**
   * The user-data folder: saved requests, environments and recent sessions are kept there. A
   * temporary folder, removed at close, when not given.
   */
  userData?: string;
  /**
   * Run the session service in a worker thread (decoding off the thread that answers the
   * socket). The worker loads the TypeScript sources through tsx. Default false (in-process).
   */
  sessionsInWorker?: boolean;
  sessionDeps?: Omit<SessionServiceDeps, 'demoAgent' | 'onFileOpened'>;
  /** Files named on the command line: opened at start, and the page may reopen them. */
  files?: readonly string[];
  /** Origins (besides this machine) a request filled with secrets may go to: named on the command line, never by the page. */
  secretOrigins?: readonly string[];
  log?: (message: string) => void;
}

export interface WebApp {
  readonly url: string;
  readonly host: BrowserHost;
  readonly service: SessionCommands;
  readonly demoAgentUrl: string | null;
  close(): Promise<void>;
}

/** Host commands of the browser: no native dialogs or shell; files come as uploads. */
export function browserHostCommands(options: {
  version: string;
  recentFiles: RecentFiles;
  service: SessionCommands;
  samplesDir: string;
}): HostCommands {
  const hostCommands = createEmitter<HostCommand>();
  return {
    ...sampleCommands(options.service, options.samplesDir),
    getAppInfo: () =>
      Promise.resolve({
        name: 'Agent Stream Inspector',
        version: options.version,
        host: 'browser',
        platform: process.platform,
        capabilities: { fileDialogs: false, upload: true, dropPaths: false },
      }),
    showOpenDialog: () =>
      Promise.reject(
        new Error(
          'The browser host has no native file dialog: pick the file with the Open button (an upload), or name it on the command line.',
        ),
      ),
    listRecentFiles: () => options.recentFiles.list(),
    // The page opens links itself (target=_blank, rel=noopener); main has no browser to drive.
    openExternal: () => Promise.resolve(false),
    onHostCommand: hostCommands.event,
  };
}

export async function startWebApp(options: WebAppOptions): Promise<WebApp> {
  let demo: DemoAgent | null = null;
  let demoUrl: string | null = null;
  if (options.demoAgent === undefined || options.demoAgent === true) {
    demo = await startEmbeddedDemoAgent(options.demoAgentPort !== undefined ? { port: options.demoAgentPort } : {});
    demoUrl = demo.url;
  } else if (typeof options.demoAgent === 'object') {
    demoUrl = options.demoAgent.url;
  }
  const userData = options.userData ?? (await mkdtemp(join(tmpdir(), 'stream-inspector-data-')));
  const paths = workspacePaths(userData);
  // Uploads never become recent files: the session service does not report them (their copies are deleted).
  const recentFiles = withoutFilesIn(createRecentFiles(options.recentFilesPath), paths.recentSessions);
  let service: SessionCommands;
  let disposeService: () => Promise<void>;
  /** Row batches wait while a page's socket is backed up (hosts/backpressure.ts). */
  let holdBatches: (held: boolean) => void;
  let spoolDir: string | null = options.sessionDeps?.spoolDir ?? null;
  if (options.sessionsInWorker) {
    const worker = startSessionWorker({
      entry: new URL('../services/sessions/worker/session-worker.ts', import.meta.url),
      fromSource: true,
      demoAgentUrl: demoUrl,
      ...(options.log ? { onError: (e) => options.log?.(e.message) } : {}),
    });
    service = worker.service;
    holdBatches = (held) => worker.holdBatches(held);
    spoolDir = worker.spoolDir;
    disposeService = () => worker.dispose();
    trackOpenedFiles(service.onSessionsChanged, recentFiles);
  } else {
    const inProcess: SessionService = createDefaultSessionService({
      ...options.sessionDeps,
      demoAgent: () => (demoUrl ? demoAgentInfo(demoUrl) : null),
      onFileOpened: (path) => void recentFiles.add(path),
    });
    service = inProcess;
    holdBatches = (held) => inProcess.holdBatches(held);
    disposeService = () => inProcess.dispose();
  }
  const access = createPathAccess({
    recentFiles,
    howToOpen:
      'Pick it with the Open button (an upload), drop it on the page, or name it on the command line that starts the inspector.',
  });
  const workspace = createWorkspace({
    userData,
    cipher: plainSecrets(
      paths.environments,
      'the browser host has no system keychain (the desktop app encrypts them with it).',
    ),
    secretOrigins: createSecretOriginGate(approveFromStartup(options.secretOrigins ?? []), BROWSER_HOST_HOW_TO_ALLOW),
    sessions: service,
    spoolDir,
    demoUrl,
    onError: (error) =>
      (options.log ?? console.error)(
        `Keeping a recent session failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  const inspector = limitUploads(
    guardPaths(
      composeInspector(
        service,
        browserHostCommands({
          version: options.version ?? '0.0.0',
          recentFiles,
          service,
          samplesDir: options.samplesDir ?? PROJECT_SAMPLES_DIR,
        }),
        workspace,
      ),
      access,
    ),
    options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
  );
  for (const file of options.files ?? []) {
    access.grantRead(file);
    await service
      .openFile({ path: file })
      .catch((error: unknown) =>
        (options.log ?? console.error)(error instanceof Error ? error.message : String(error)),
      );
  }
  const closeParts = async (): Promise<void> => {
    // The service first: the sessions still running end (stopped), and the workspace keeps them in recent sessions.
    await disposeService();
    await workspace.dispose();
    await demo?.close();
    if (options.userData === undefined) await rm(userData, { recursive: true, force: true });
  };
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      service: inspector,
      rendererDir: options.rendererDir,
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.preferredPort !== undefined ? { preferredPort: options.preferredPort } : {}),
      ...(options.token !== undefined ? { token: options.token } : {}),
      ...(options.log ? { log: options.log } : {}),
      onBackpressure: holdBatches,
    });
  } catch (error) {
    // No host (its port taken, say): nothing started for it stays behind.
    await closeParts();
    throw error;
  }
  return {
    url: host.url,
    host,
    service,
    demoAgentUrl: demoUrl,
    async close() {
      await host.close();
      await closeParts();
    },
  };
}
