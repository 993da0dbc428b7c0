import {
  createSocketClient,
  INSPECTOR_CONTRACT,
  INSPECTOR_NAMES,
  socketUrlFor,
  type InspectorService,
} from '../../src-shared/contract';
import { createStore } from '../model/store';
import type { ReadableStore } from '../model/types';

/**
 * The one module that touches the bridge to main. In Electron the preload exposes the
 * contract's service as `window.inspector` (src-main/electron/preload.ts); in the browser host
 * the same service runs over a WebSocket at `socketUrlFor(location.href)`. Everything else in
 * the renderer sees only `InspectorService`.
 */

declare global {
  interface Window {
    /** Set by the Electron preload: the contract's commands and event subscriptions. */
    readonly inspector?: InspectorService;
    /** Set by the Electron preload: host helpers outside the contract. */
    readonly inspectorHost?: { grantDroppedFile(file: File): Promise<string | null> };
  }
}

export interface BridgeStatus {
  readonly connected: boolean;
  /** Why the bridge is down (shown in a banner). */
  readonly reason: string | null;
}

export interface Bridge {
  readonly kind: 'electron' | 'browser';
  readonly service: InspectorService;
  readonly status: ReadableStore<BridgeStatus>;
  /** The real path of a dropped file, granted to main for openFile (Electron only; null in the browser). */
  readonly pathForFile: (file: File) => Promise<string | null>;
}

export function connectBridge(): Bridge {
  const exposed = window.inspector;
  if (exposed) {
    const host = window.inspectorHost;
    return {
      kind: 'electron',
      service: exposed,
      status: createStore<BridgeStatus>({ connected: true, reason: null }),
      pathForFile: async (file) => {
        try {
          return (await host?.grantDroppedFile(file)) ?? null;
        } catch {
          return null;
        }
      },
    };
  }
  return connectSocket(window.location.href);
}

function connectSocket(pageUrl: string): Bridge {
  const status = createStore<BridgeStatus>({ connected: false, reason: null });
  let url: string;
  try {
    url = socketUrlFor(pageUrl);
  } catch (error) {
    status.set({ connected: false, reason: error instanceof Error ? error.message : String(error) });
    url = '';
  }
  const socket = url ? new WebSocket(url) : null;
  if (!socket) {
    return {
      kind: 'browser',
      service: unavailableService(status.getSnapshot().reason ?? 'No bridge to main'),
      status,
      pathForFile: () => Promise.resolve(null),
    };
  }
  const client = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, socket, {
    onProtocolError: (message) => console.warn(`Inspector protocol: ${message}`),
  });
  client.ready.then(
    () => status.set({ connected: true, reason: null }),
    () =>
      status.set({
        connected: false,
        reason: 'Could not connect to the inspector (is it still running, and is the URL the one it printed?)',
      }),
  );
  void client.closed.then((reason) =>
    status.set({ connected: false, reason: `${reason}: restart the inspector and reload the page.` }),
  );
  return { kind: 'browser', service: client.service, status, pathForFile: () => Promise.resolve(null) };
}

/** A service whose commands reject with the reason (the page was not opened from the host). */
function unavailableService(reason: string): InspectorService {
  const service: Record<string, unknown> = {};
  for (const name of INSPECTOR_NAMES.commands) service[name] = () => Promise.reject(new Error(reason));
  for (const name of INSPECTOR_NAMES.events) service[name] = () => () => {};
  return service as InspectorService;
}
