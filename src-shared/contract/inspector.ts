import { channelOf, contractNames, type ServiceOf } from './define';
import { HOST_CONTRACT } from './host-contract';
import { SESSION_CONTRACT } from './session-contract';
import { WORKSPACE_CONTRACT } from './workspace-contract';

/**
 * The one contract between main and the renderer. Commands resolve with plain data or reject
 * with an Error whose message is meant for the user; events are `onXxx`. Main implements
 * `InspectorService`; the preload, the browser host's WebSocket and the renderer's client are
 * all typed against it and derive their channels and allowlists from its keys.
 */
export const INSPECTOR_CONTRACT = {
  ...HOST_CONTRACT,
  ...SESSION_CONTRACT,
  ...WORKSPACE_CONTRACT,
} as const;

/** Each owner's command and event names: how a host routes a call (hosts/compose.ts) and what the session worker refuses. */
export const HOST_NAMES = contractNames(HOST_CONTRACT);
export const WORKSPACE_NAMES = contractNames(WORKSPACE_CONTRACT);
export const SESSION_NAMES = contractNames(SESSION_CONTRACT);
export type HostKeys = keyof typeof HOST_CONTRACT;
export type WorkspaceKeys = keyof typeof WORKSPACE_CONTRACT;
export type SessionKeys = keyof typeof SESSION_CONTRACT;

export type InspectorContract = typeof INSPECTOR_CONTRACT;
export type InspectorService = ServiceOf<InspectorContract>;

/** Every channel of the contract starts with this prefix (the IPC wrapper checks it). */
export const CHANNEL_PREFIX = 'inspector:';

export const INSPECTOR_NAMES = contractNames(INSPECTOR_CONTRACT);
export type InspectorCommand = (typeof INSPECTOR_NAMES.commands)[number];
export type InspectorEvent = (typeof INSPECTOR_NAMES.events)[number];

export function inspectorChannel(key: InspectorCommand | InspectorEvent): string {
  return channelOf(CHANNEL_PREFIX, key);
}

/** Rows per batch event; a bigger backlog drains over the following frames. */
export const MAX_BATCH_ROWS = 5000;
/** Minimum spacing of batch events for one session (one animation frame). */
export const BATCH_INTERVAL_MS = 16;
/** Raw bytes returned by one getRawBytes call. */
export const MAX_RAW_BYTES = 1024 * 1024;
