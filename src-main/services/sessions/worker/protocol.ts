import { HOST_NAMES, WORKSPACE_NAMES } from '../../../../src-shared/contract/inspector';
import type { HostCommands, WorkspaceCommands } from '../../../hosts/compose';
import type { ReopenRequest } from '../session-service';

/** What the main thread hands the session worker at start. */
export interface SessionWorkerData {
  demoAgentUrl: string | null;
  /** Where live sessions are spooled, so a restarted worker can reload them (see SessionServiceDeps.spoolDir). */
  spoolDir?: string;
}

/**
 * Messages beside the contract's: the host asks the worker to stop ('dispose' → 'disposed'),
 * a restarted worker reloads the sessions of the one that failed, and row batches are held
 * while a client of the host cannot take them (SessionService.holdBatches).
 */
export type HostToWorker =
  'dispose' | { t: 'reload'; sessions: ReopenRequest[] } | { t: 'hold-batches'; held: boolean };
export type WorkerToHost = 'disposed' | { t: 'reloaded'; failed: { sessionId: string; message: string }[] };

export function isReloaded(message: unknown): message is Extract<WorkerToHost, { t: 'reloaded' }> {
  return typeof message === 'object' && message !== null && (message as { t?: unknown }).t === 'reloaded';
}

const hostOnly = (): Promise<never> =>
  Promise.reject(new Error('This command is answered by the host, not the session worker'));

/** Every command of `names` refused, every event silent: an owner the worker does not answer for. */
function refused<T>(names: { readonly commands: readonly string[]; readonly events: readonly string[] }): T {
  const out: Record<string, unknown> = {};
  for (const name of names.commands) out[name] = hostOnly;
  for (const name of names.events) out[name] = () => () => {};
  return out as T;
}

/** The host's commands, answered outside the worker (the worker's side refuses them). */
export const HOST_ONLY: HostCommands = refused(HOST_NAMES);

/** The user-data folder's commands are the host's too; requests reach the worker with their variables already filled. */
export const WORKSPACE_HOST_ONLY: WorkspaceCommands = {
  ...refused<Omit<WorkspaceCommands, 'prepareConnect'>>(WORKSPACE_NAMES),
  prepareConnect: (request) => Promise.resolve(request),
};
