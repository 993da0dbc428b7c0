import { isAbsolute, relative } from 'node:path';
import { jsonFile } from '../services/storage/json-file';

/**
 * The most recently opened files, newest first, kept in a small JSON file when a path is
 * given (Electron: the user-data folder) and in memory otherwise.
 */
export interface RecentFiles {
  list(): Promise<string[]>;
  add(path: string): Promise<void>;
}

const MAX_RECENT = 12;

const checkPaths = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string').slice(0, MAX_RECENT) : [];

export function createRecentFiles(storePath?: string): RecentFiles {
  const file = storePath ? jsonFile(storePath, { fallback: () => [], check: checkPaths }) : null;
  let cache: string[] | null = file ? null : [];
  const load = async (): Promise<string[]> => {
    // A damaged list is only a convenience lost: start a new one (the next add replaces it).
    cache ??= file ? await file.read().catch(() => []) : [];
    return cache;
  };
  return {
    list: async () => [...(await load())],
    async add(path) {
      const next = [path, ...(await load()).filter((p) => p !== path)].slice(0, MAX_RECENT);
      cache = next;
      await file?.write(next);
    },
  };
}

/**
 * Adds the file of every newly opened file session to the recent files (for hosts whose
 * session service runs in a worker and cannot call back).
 */
export function trackOpenedFiles(
  onSessionsChanged: (
    listener: (list: readonly { id: string; source: { kind: string; path?: string; uploaded?: boolean } }[]) => void,
  ) => () => void,
  recent: RecentFiles,
  onAdded: () => void = () => {},
): () => void {
  const seen = new Set<string>();
  return onSessionsChanged((list) => {
    for (const session of list) {
      if (seen.has(session.id)) continue;
      seen.add(session.id);
      // An upload's copy is deleted when its session closes: never a recent file.
      if (session.source.kind === 'file' && session.source.path && !session.source.uploaded)
        void recent.add(session.source.path).then(onAdded);
    }
  });
}

/**
 * Recent files without the files inside `folder`: copies the app made itself (a recent
 * session's kept recording) are reopened another way, so they are neither added nor listed.
 */
export function withoutFilesIn(recent: RecentFiles, folder: string): RecentFiles {
  const inside = (path: string): boolean => {
    const rest = relative(folder, path);
    return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
  };
  return {
    list: async () => (await recent.list()).filter((path) => !inside(path)),
    add: (path) => (inside(path) ? Promise.resolve() : recent.add(path)),
  };
}
