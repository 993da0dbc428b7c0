import type { HostCommands } from '../compose';

/** What the main thread hands the session worker at start. */
export interface SessionWorkerData {
  demoAgentUrl: string | null;
}

const hostOnly = (): Promise<never> => Promise.reject(new Error('This command is answered by the host, not the session worker'));

/** The host's commands, answered outside the worker (the worker's side refuses them). */
export const HOST_ONLY: HostCommands = {
  getAppInfo: hostOnly,
  showOpenDialog: hostOnly,
  listRecentFiles: hostOnly,
  openExternal: hostOnly,
  listSamples: hostOnly,
  openSample: hostOnly,
  onHostCommand: () => () => {},
};
