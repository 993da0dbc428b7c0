import {
  HOST_NAMES,
  SESSION_NAMES,
  WORKSPACE_NAMES,
  type HostKeys,
  type InspectorService,
  type SessionKeys,
  type WorkspaceKeys,
} from '../../src-shared/contract/inspector';
import type { ConnectRequest } from '../../src-shared/contract/payloads';

/** The session half of the contract, in-process (SessionService) or in a worker. */
export type SessionCommands = Pick<InspectorService, SessionKeys>;

/** Saved requests, environments and recent sessions, and filling a request's variables before it is sent. */
export type WorkspaceCommands = Pick<InspectorService, WorkspaceKeys> & {
  prepareConnect(request: ConnectRequest): Promise<ConnectRequest>;
};

/** What a host adds to the session service: app info, dialogs, shell, menus, its samples (and may override saving). */
export type HostCommands = Pick<InspectorService, HostKeys> &
  Partial<Pick<InspectorService, 'saveRecording' | 'exportSession'>>;

/** The members of `service` the contract's `names` list, as they are (unbound, as the contract calls them). */
function pick<T, K extends keyof T & string>(
  service: T,
  names: { commands: readonly string[]; events: readonly string[] },
): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const name of [...names.commands, ...names.events] as K[]) out[name] = service[name];
  return out as Pick<T, K>;
}

/**
 * The full contract implementation for one host: each owner's commands from its part of the
 * contract (src-shared/contract/*-contract.ts), so a new command is routed by the file it is
 * declared in. A connect request gets its variables filled first; a host may save files itself.
 */
export function composeInspector(
  sessions: SessionCommands,
  host: HostCommands,
  workspace: WorkspaceCommands,
): InspectorService {
  return {
    ...pick<HostCommands, HostKeys>(host, HOST_NAMES),
    ...pick<WorkspaceCommands, WorkspaceKeys>(workspace, WORKSPACE_NAMES),
    ...pick<SessionCommands, SessionKeys>(sessions, SESSION_NAMES),
    connect: async (request) => sessions.connect(await workspace.prepareConnect(request)),
    saveRecording: host.saveRecording ?? sessions.saveRecording,
    exportSession: host.exportSession ?? sessions.exportSession,
  };
}
