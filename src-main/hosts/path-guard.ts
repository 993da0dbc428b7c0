import { resolve } from 'node:path';
import type { InspectorService } from '../../src-shared/contract/inspector';
import type { RecentFiles } from './recent-files';

/**
 * Which files the contract may touch (docs/security.md, "Files"). The renderer is the least
 * trusted part of the app (it shows untrusted streams; in the browser host anyone holding the
 * token speaks for it), so a path it sends is never taken on its word:
 *
 * - it may open a file only if the user chose it: a command-line argument, a file dropped on
 *   the window (granted by the preload, which alone sees the dropped file's path), or one of
 *   the recent files (which only ever lists files opened that way or through main's dialog);
 * - it may never name a file to write: saving and exporting go through main's save dialog
 *   (Electron) or a download (browser host), recording to a file through main's own commands.
 *
 * Main's own calls (dialogs, menus, command line) go to the session service directly and are
 * not guarded. Refusals name the path they refuse and never anything read from a file.
 */
export interface PathAccess {
  /** The user chose this file (a drop, a command-line argument): the renderer may open it. */
  grantRead(path: string): void;
  /** Resolves to the absolute path when the renderer may open it; rejects otherwise. */
  readable(path: string): Promise<string>;
}

export class PathRefused extends Error {
  override readonly name = 'PathRefused';
}

export interface PathAccessOptions {
  recentFiles: RecentFiles;
  /** How the user opens a file in this host, for the refusal message. */
  howToOpen: string;
}

export function createPathAccess(options: PathAccessOptions): PathAccess {
  const granted = new Set<string>();
  return {
    grantRead: (path) => void granted.add(resolve(path)),
    async readable(path) {
      const absolute = resolve(path);
      if (granted.has(absolute) || (await options.recentFiles.list()).includes(absolute)) return absolute;
      throw new PathRefused(
        `Refused to open ${JSON.stringify(path)}: the inspector opens only files you chose. ${options.howToOpen}`,
      );
    },
  };
}

const writeRefused = (what: string, path: string): PathRefused =>
  new PathRefused(
    `Refused to write ${JSON.stringify(path)}: ${what} goes only where you choose in the inspector's own save dialog or download, never to a path sent by the page.`,
  );

/** The contract as the renderer may use it: the same service, with every path checked. */
export function guardPaths(service: InspectorService, access: PathAccess): InspectorService {
  return {
    ...service,
    openFile: async (request) => service.openFile({ ...request, path: await access.readable(request.path) }),
    connect: (request) =>
      request.recordTo === undefined
        ? service.connect(request)
        : Promise.reject(writeRefused('a recording', request.recordTo)),
    saveRecording: (request) =>
      request.path === undefined
        ? service.saveRecording(request)
        : Promise.reject(writeRefused('a recording', request.path)),
    exportSession: (request) =>
      request.path === undefined
        ? service.exportSession(request)
        : Promise.reject(writeRefused('an export', request.path)),
    startProxy: (request) =>
      request.recordDir === undefined
        ? service.startProxy(request)
        : Promise.reject(writeRefused('a proxy recording', request.recordDir)),
  };
}
