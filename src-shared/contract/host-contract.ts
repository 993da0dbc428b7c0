import { command, event } from './define';
import * as p from './payloads';
import * as s from './schema';

/**
 * The host's part of the contract: app info, native dialogs, the shell, menus and the samples
 * the app ships. Each host (Electron, the browser host) answers these itself; the session
 * worker refuses them.
 */
export const HOST_CONTRACT = {
  getAppInfo: command(s.none(), p.AppInfo),
  /** Electron: native open dialog, then open the file; null when cancelled. Browser: rejects. */
  showOpenDialog: command(s.none(), s.nullable(p.SessionSummary)),
  listRecentFiles: command(s.none(), s.array(s.string())),
  /** Opens an http(s) URL in the system browser after the user confirms; false when declined. */
  openExternal: command(p.ExternalUrl, s.boolean()),
  /** The sample recordings the app ships (File → Open Sample). */
  listSamples: command(s.none(), s.array(p.SampleInfo)),
  /** Opens a shipped sample by id: one session per file of the sample, in order. */
  openSample: command(p.OpenSampleRequest, s.array(p.SessionSummary)),
  onHostCommand: event(p.HostCommand),
} as const;
