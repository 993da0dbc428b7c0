import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { Listener, Unsubscribe } from '../../src-shared/contract/define';
import { unwrapOutcome } from '../../src-shared/contract/dispatch';
import { DROPPED_FILE_CHANNEL, EVENT_ACK_CHANNEL } from './channels';
import { INSPECTOR_NAMES, inspectorChannel, type InspectorService } from '../../src-shared/contract/inspector';

/**
 * The bridge between the sandboxed renderer and main: one named function per contract
 * command and one subscribe function per event, built from the contract's allowlist — no
 * raw ipcRenderer and no generic invoke(channel) is exposed. Subscriptions hand the listener
 * the payload only (never Electron's event) and return their unsubscribe function.
 * Bundled to a single CommonJS file, as `sandbox: true` requires.
 */

function commandFn(name: string) {
  const channel = inspectorChannel(name as never);
  return async (arg?: unknown): Promise<unknown> => unwrapOutcome(await ipcRenderer.invoke(channel, arg));
}

function eventFn(name: string) {
  const channel = inspectorChannel(name as never);
  return (listener: Listener<unknown>): Unsubscribe => {
    if (typeof listener !== 'function') throw new TypeError(`${name} expects a listener function`);
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  };
}

const api: Record<string, unknown> = {};
for (const name of INSPECTOR_NAMES.commands) api[name] = commandFn(name);
for (const name of INSPECTOR_NAMES.events) api[name] = eventFn(name);

/**
 * Every contract event is acknowledged as it arrives, whether the page listens to it or not:
 * main counts the events a window has not taken, and holds row batches back while a page that
 * takes nothing (paused, frozen) is far behind (event-acks.ts).
 */
for (const name of INSPECTOR_NAMES.events)
  ipcRenderer.on(inspectorChannel(name), () => ipcRenderer.send(EVENT_ACK_CHANNEL));

/** What the renderer finds as `window.inspector`: the contract's service interface. */
const bridge = api as InspectorService;
contextBridge.exposeInMainWorld('inspector', bridge);

/**
 * Host helpers outside the contract: the real path of a file dropped on the window, granted
 * to main first (the renderer then opens it with openFile, which refuses paths the user did
 * not choose). A File the page made itself has no path, so the page cannot grant anything.
 */
contextBridge.exposeInMainWorld('inspectorHost', {
  grantDroppedFile: async (file: File): Promise<string | null> => {
    const path = webUtils.getPathForFile(file);
    if (!path) return null;
    unwrapOutcome(await ipcRenderer.invoke(DROPPED_FILE_CHANNEL, path));
    return path;
  },
});
