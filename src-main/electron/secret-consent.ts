import { BrowserWindow, dialog } from 'electron';

/**
 * Asks the user, in a native dialog the page cannot draw or answer, before a request filled
 * with secrets goes to an origin they have not been sent to in this run (docs/security.md).
 * Cancel is the default: pressing Enter or Esc sends nothing.
 */
export async function confirmSecretOrigin(origin: string, names: readonly string[]): Promise<boolean> {
  const owner = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0] ?? null;
  const options = {
    type: 'warning' as const,
    buttons: ['Send', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: `Send ${names.map((n) => `{{${n}}}`).join(', ')} to ${origin}?`,
    detail: `A request filled with ${names.length === 1 ? 'this secret' : 'these secrets'} is about to go to ${origin} for the first time since the app started. Send it only if you trust that server; the app will not ask again for it until it restarts.`,
  };
  const { response } = owner ? await dialog.showMessageBox(owner, options) : await dialog.showMessageBox(options);
  return response === 0;
}

/** Told when the user declined: how to be asked again. */
export const DESKTOP_HOW_TO_ALLOW = 'You declined it when the app asked; send the request again to be asked again.';
