import { app, BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { createEmitter, type Emitter } from '../../src-shared/contract/emitter';
import type { HostCommand, SavedFile } from '../../src-shared/contract/payloads';
import { FILE_FORMATS, fileNameFor, type FileFormat } from '../../src-shared/export/formats';
import type { HostCommands, SessionCommands } from '../hosts/compose';
import { sampleCommands } from '../services/samples/sample-commands';
import type { RecentFiles } from '../hosts/recent-files';
import { confirmOpenExternal } from './window';

/**
 * The Electron host's part of the contract: native open and save dialogs, recent files,
 * confirmed external links, and the menu's commands to the renderer.
 */
export interface ElectronHost extends HostCommands {
  readonly commands: Emitter<HostCommand>;
  /** Open dialog → session; null when cancelled. */
  openWithDialog(): Promise<string | null>;
}

const FILE_FILTERS = [
  { name: 'Streams and recordings', extensions: ['ndjson', 'jsonl', 'sse', 'txt', 'json', 'har', 'log'] },
  { name: 'All files', extensions: ['*'] },
];

export function createElectronHost(
  sessions: SessionCommands,
  recentFiles: RecentFiles,
  samplesDir: string,
): ElectronHost {
  const commands = createEmitter<HostCommand>();
  const focused = (): BrowserWindow | null =>
    BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0] ?? null;

  const chooseSavePath = async (title: string, name: string): Promise<string | null> => {
    const owner = focused();
    const options = { title, defaultPath: join(app.getPath('documents'), name) };
    const result = owner ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };

  const openWithDialog = async (): Promise<string | null> => {
    const owner = focused();
    const options = { title: 'Open a stream or recording', properties: ['openFile' as const], filters: FILE_FILTERS };
    const result = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options);
    const [path] = result.filePaths;
    if (result.canceled || !path) return null;
    const summary = await sessions.openFile({ path });
    commands.fire({ kind: 'select-session', sessionId: summary.id });
    return summary.id;
  };

  /** The save dialog's suggestion: the session's title with the format's extension. */
  const defaultName = async (sessionId: string, format: FileFormat): Promise<string> =>
    fileNameFor((await sessions.listSessions()).find((s) => s.id === sessionId)?.title ?? 'session', format);

  return {
    ...sampleCommands(sessions, samplesDir),
    commands,
    openWithDialog,
    getAppInfo: () =>
      Promise.resolve({
        name: app.getName(),
        version: app.getVersion(),
        host: 'electron',
        platform: process.platform,
        capabilities: { fileDialogs: true, upload: false, dropPaths: true },
      }),
    async showOpenDialog() {
      const id = await openWithDialog();
      if (id === null) return null;
      return (await sessions.listSessions()).find((s) => s.id === id) ?? null;
    },
    listRecentFiles: () => recentFiles.list(),
    openExternal: ({ url }) => confirmOpenExternal(focused(), url),
    async saveRecording({ sessionId, path }): Promise<SavedFile> {
      const target = path ?? (await chooseSavePath('Save recording', await defaultName(sessionId, 'recording')));
      return target === null ? null : sessions.saveRecording({ sessionId, path: target });
    },
    async exportSession({ sessionId, kind, path }): Promise<SavedFile> {
      const target =
        path ?? (await chooseSavePath(`Export ${FILE_FORMATS[kind].label}`, await defaultName(sessionId, kind)));
      return target === null ? null : sessions.exportSession({ sessionId, kind, path: target });
    },
    onHostCommand: commands.event,
  };
}
