import { BrowserWindow, ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { dispatchCall, subscribeEvent, type CallOutcome } from '../../src-shared/contract/dispatch';
import type { Unsubscribe } from '../../src-shared/contract/define';
import { createBackpressure, STUCK_MS } from '../hosts/backpressure';
import { DROPPED_FILE_CHANNEL, EVENT_ACK_CHANNEL } from './channels';
import { ACK_HIGH_WATER, ACK_LOW_WATER, AckedPage } from './event-acks';
import {
  CHANNEL_PREFIX,
  INSPECTOR_CONTRACT,
  INSPECTOR_NAMES,
  inspectorChannel,
  type InspectorService,
} from '../../src-shared/contract/inspector';

/**
 * The only place main listens to the renderer. Every command of the contract is registered
 * through one wrapper that checks, before the service sees anything: the channel carries the
 * contract's prefix, the sender is the main frame of one of our windows (not an iframe, not a
 * stray webContents), and that frame shows the app's own page. The argument is then checked
 * by the contract's schema and the result before it leaves (dispatchCall). Events go to every
 * window that shows the app; a window whose page stops taking them (its preload acknowledges
 * each, event-acks.ts) holds row batches back (`onBackpressure`), as a backed-up socket does in
 * the browser host.
 */

export interface IpcOptions {
  /** True for URLs of the app's own renderer (the app:// origin, or the dev server). */
  isAppUrl(url: string): boolean;
  log?: (message: string) => void;
  /** A window's page stopped taking events, or none is behind any more (SessionService.holdBatches). */
  onBackpressure?: (held: boolean) => void;
}

export class SenderRejected extends Error {
  override readonly name = 'SenderRejected';
}

/** Throws SenderRejected unless the call comes from the app's page in a main frame. */
export function validateSender(
  channel: string,
  event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>,
  options: IpcOptions,
): void {
  if (!channel.startsWith(CHANNEL_PREFIX)) throw new SenderRejected(`channel ${channel} is not part of the contract`);
  const frame = event.senderFrame;
  if (!frame) throw new SenderRejected('the sending frame is gone');
  if (frame !== event.sender.mainFrame || frame.parent !== null)
    throw new SenderRejected('calls are accepted from the main frame only');
  if (!BrowserWindow.fromWebContents(event.sender)) throw new SenderRejected('the sender is not an app window');
  if (!options.isAppUrl(frame.url))
    throw new SenderRejected(`calls from ${frame.url || 'an unknown page'} are not accepted`);
}

function handle(channel: string, options: IpcOptions, run: (arg: unknown) => Promise<CallOutcome>): void {
  ipcMain.handle(channel, async (event, arg: unknown): Promise<CallOutcome> => {
    try {
      validateSender(channel, event, options);
    } catch (error) {
      options.log?.(`IPC refused on ${channel}: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, error: { message: 'Refused: this page may not call the inspector.' } };
    }
    return run(arg);
  });
}

/** Lets the preload grant the path of a file dropped on the window (see DROPPED_FILE_CHANNEL). */
export function registerDroppedFiles(grant: (path: string) => void, options: IpcOptions): Unsubscribe {
  handle(DROPPED_FILE_CHANNEL, options, (path) => {
    if (typeof path !== 'string' || path === '')
      return Promise.resolve({ ok: false, error: { message: 'A dropped file needs a path', invalidArgument: true } });
    grant(path);
    return Promise.resolve({ ok: true, value: null });
  });
  return () => ipcMain.removeHandler(DROPPED_FILE_CHANNEL);
}

/** Registers the contract's commands and forwards its events; returns a function undoing both. */
export function registerContract(service: InspectorService, options: IpcOptions): Unsubscribe {
  for (const name of INSPECTOR_NAMES.commands) {
    handle(inspectorChannel(name), options, (arg) => dispatchCall(INSPECTOR_CONTRACT, service, name, arg));
  }
  const targets = (): WebContents[] =>
    BrowserWindow.getAllWindows()
      .map((w) => w.webContents)
      .filter((wc) => !wc.isDestroyed() && options.isAppUrl(wc.mainFrame.url));
  const backpressure = createBackpressure({
    onChange: (held) => options.onBackpressure?.(held),
    highWater: ACK_HIGH_WATER,
    lowWater: ACK_LOW_WATER,
    onStuck: (page) => {
      options.log?.(`a window took no event for ${STUCK_MS / 1000} s (a frozen or paused page): not waited for`);
      (page as AckedPage).giveUp();
    },
  });
  const pages = new Map<WebContents, AckedPage>();
  const pageOf = (wc: WebContents): AckedPage => {
    let page = pages.get(wc);
    if (!page) {
      const created = new AckedPage(() => !wc.isDestroyed());
      wc.once('destroyed', () => {
        pages.delete(wc);
        backpressure.closed(created);
      });
      pages.set(wc, (page = created));
    }
    return page;
  };
  const onAck = (event: IpcMainEvent): void => {
    try {
      validateSender(EVENT_ACK_CHANNEL, event, options);
    } catch (error) {
      options.log?.(`IPC refused on ${EVENT_ACK_CHANNEL}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    pages.get(event.sender)?.acked();
  };
  ipcMain.on(EVENT_ACK_CHANNEL, onAck);
  const unsubscribes = INSPECTOR_NAMES.events.map((name) =>
    subscribeEvent(
      INSPECTOR_CONTRACT,
      service,
      name,
      (payload) => {
        for (const wc of targets()) {
          wc.send(inspectorChannel(name), payload);
          const page = pageOf(wc);
          page.sent();
          backpressure.sent(page);
        }
      },
      (message) => options.log?.(message),
    ),
  );
  return () => {
    for (const name of INSPECTOR_NAMES.commands) ipcMain.removeHandler(inspectorChannel(name));
    for (const unsubscribe of unsubscribes) unsubscribe();
    ipcMain.removeListener(EVENT_ACK_CHANNEL, onAck);
    backpressure.dispose();
  };
}
