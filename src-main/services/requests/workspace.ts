import { join } from 'node:path';
import type { SessionSummary } from '../../../src-shared/contract/payloads';
import type { SessionCommands, WorkspaceCommands } from '../../hosts/compose';
import { createSessionHistory, trackEndedSessions, type SessionHistory } from './session-history';
import { spoolPath } from '../sessions/spool-folders';
import { createCollectionStore } from './collection-store';
import { createEnvironmentStore } from './environment-store';
import { createRequests } from './request-commands';
import type { SecretCipher } from './secret-cipher';
import type { SecretOriginGate } from './secret-origins';

/** Where each thing the workspace keeps lives in the user-data folder. */
export function workspacePaths(userData: string): { requests: string; environments: string; recentSessions: string } {
  return {
    requests: join(userData, 'requests.json'),
    environments: join(userData, 'environments.json'),
    recentSessions: join(userData, 'recent-sessions'),
  };
}

export interface WorkspaceOptions {
  userData: string;
  cipher: SecretCipher;
  sessions: SessionCommands;
  /** Where the session service spools live sessions (their bytes when the user did not record them). */
  spoolDir: string | null;
  maxRecentBytes?: number;
  /** Decides where secrets may be sent (docs/security.md); this machine only when absent. */
  secretOrigins?: SecretOriginGate;
  /** The embedded demo agent's base URL, `{{demo_url}}` in requests whatever the environment (null: none runs). */
  demoUrl?: string | null;
  onError?: (error: unknown) => void;
}

export interface Workspace extends WorkspaceCommands {
  readonly history: SessionHistory;
  /** Stops following the sessions list; resolves once the sessions that ended before are kept. */
  dispose(): Promise<void>;
}

/**
 * What a host keeps for the user between runs, as contract commands: saved requests,
 * environments (secrets sealed by the host's cipher), and recent sessions reopened from their
 * recordings. Each host (Electron, the browser host) builds one over its user-data folder.
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  const paths = workspacePaths(options.userData);
  const requests = createRequests(
    createCollectionStore(paths.requests),
    createEnvironmentStore(paths.environments, options.cipher),
    options.secretOrigins,
    () => (options.demoUrl ? [{ name: 'demo_url', value: options.demoUrl, secret: false }] : []),
  );
  const history = createSessionHistory({
    folder: paths.recentSessions,
    ...(options.maxRecentBytes !== undefined ? { maxBytes: options.maxRecentBytes } : {}),
  });
  const recordingOf = (summary: SessionSummary): { path: string; spool: boolean } | null => {
    if (summary.recordingPath !== undefined) return { path: summary.recordingPath, spool: false };
    return options.spoolDir === null ? null : { path: spoolPath(options.spoolDir, summary.id), spool: true };
  };
  const stop = trackEndedSessions(options.sessions.onSessionsChanged, history, recordingOf, undefined, options.onError);
  return {
    ...requests,
    history,
    listRecentSessions: () => history.list(),
    setRecentSessionsKeep: ({ keep }) => history.setKeep(keep),
    async openRecentSession({ id }) {
      const { path, entry } = await history.recordingOf(id);
      return options.sessions.openFile({ path, title: entry.title });
    },
    dispose: stop,
  };
}
