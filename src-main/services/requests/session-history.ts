import { closeSync, createReadStream, createWriteStream, openSync } from 'node:fs';
import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { RecentSession, type RecentSessions, type SessionSummary } from '../../../src-shared/contract/payloads';
import * as s from '../../../src-shared/contract/schema';
import { jsonFile } from '../storage/json-file';

/**
 * Recent sessions that outlive the app: when a live session ends, its recording (the spool
 * file every live session is written to, or the file the user recorded to) is kept in the
 * user-data folder as `recent-sessions/<id>.recording`, with an index of what the sidebar
 * lists (title, format, end status, when). Bounded: the newest `keep` sessions (a setting,
 * default DEFAULT_KEEP; 0 keeps none) within `maxBytes` together; older ones are deleted.
 * Recordings are redacted as they are written, so what is kept holds no secrets.
 */
export interface SessionHistory {
  readonly folder: string;
  list(): Promise<RecentSessions>;
  /**
   * Keeps the ended session's recording: hard-linked when it is the app's own spool file (no
   * copy of a large run; closing the session removes only the spool's name), else copied (a
   * file the user recorded to stays theirs to change). With `fd`, a descriptor of the file
   * opened when the session ended, it is copied from that when its name is gone (the session
   * was closed meanwhile); the descriptor is closed either way.
   */
  add(summary: SessionSummary, recording: KeptRecording): Promise<void>;
  setKeep(keep: number): Promise<RecentSessions>;
  /** The kept recording of a recent session; rejects for an unknown id. */
  recordingOf(id: string): Promise<{ path: string; entry: RecentSessions['sessions'][number] }>;
}

export interface KeptRecording {
  path: string;
  spool: boolean;
  fd?: number;
}

export const DEFAULT_KEEP = 20;
export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

const Entry = s.object({ session: RecentSession, fileBytes: s.index() });
const Index = s.object({
  version: s.literal(1),
  keep: s.number({ integer: true, min: 0, max: 500 }),
  entries: s.array(Entry),
});
type IndexData = s.Infer<typeof Index>;

export function createSessionHistory(options: {
  folder: string;
  maxBytes?: number;
  now?: () => number;
}): SessionHistory {
  const folder = options.folder;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const now = options.now ?? Date.now;
  const index = jsonFile<IndexData>(join(folder, 'index.json'), {
    fallback: () => ({ version: 1, keep: DEFAULT_KEEP, entries: [] }),
    check: (value) => Index.parse(value, 'index.json'),
    mode: 0o600,
  });
  const fileOf = (id: string): string => join(folder, `${id}.recording`);
  // Adds, evictions and setting changes run one at a time: each reads the index the last one wrote.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };

  const view = (doc: IndexData): RecentSessions => ({
    sessions: doc.entries.map((e) => e.session),
    keep: doc.keep,
    folder,
  });

  /** Newest first, at most `keep`, within maxBytes; the files of the others are deleted. */
  const bounded = async (doc: IndexData): Promise<IndexData> => {
    const kept: IndexData['entries'] = [];
    let total = 0;
    for (const entry of doc.entries) {
      if (kept.length < doc.keep && total + entry.fileBytes <= maxBytes) {
        kept.push(entry);
        total += entry.fileBytes;
      } else {
        await rm(fileOf(entry.session.id), { force: true });
      }
    }
    const next = { ...doc, entries: kept };
    await index.write(next);
    return next;
  };

  /** Copies the recording from its descriptor (its name may be gone) or its path. */
  const copy = async (recording: KeptRecording, target: string): Promise<void> => {
    if (recording.fd === undefined) return copyFile(recording.path, target);
    await pipeline(
      createReadStream(recording.path, { fd: recording.fd, autoClose: false, start: 0 }),
      createWriteStream(target, { mode: 0o600 }),
    );
  };

  const keepRecording = async (summary: SessionSummary, recording: KeptRecording): Promise<void> => {
    const doc = await index.read();
    if (doc.keep === 0 || doc.entries.some((e) => e.session.id === summary.id)) return;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const target = fileOf(summary.id);
    await rm(target, { force: true });
    await (recording.spool ? link(recording.path, target) : Promise.reject(new Error('copy'))).catch(() =>
      copy(recording, target),
    );
    const { size } = await stat(target);
    const source = summary.source.kind === 'live' ? summary.source : { method: '', url: '' };
    const session = {
      id: summary.id,
      title: summary.title,
      format: summary.format,
      ...(summary.end ? { end: summary.end } : {}),
      method: source.method,
      url: source.url,
      envelopes: summary.envelopes,
      bytes: summary.bytes,
      createdAt: summary.createdAt,
      endedAt: now(),
    };
    await bounded({ ...doc, entries: [{ session, fileBytes: size }, ...doc.entries] });
  };

  return {
    folder,
    list: () => serial(async () => view(await index.read())),
    add: (summary, recording) =>
      serial(async () => {
        try {
          await keepRecording(summary, recording);
        } finally {
          if (recording.fd !== undefined) closeSync(recording.fd);
        }
      }),
    setKeep: (keep) => serial(async () => view(await bounded({ ...(await index.read()), keep }))),
    async recordingOf(id) {
      const entry = (await index.read()).entries.find((e) => e.session.id === id);
      if (!entry) throw new Error('That recent session is no longer kept (it was removed to stay within the limit).');
      return { path: fileOf(id), entry: entry.session };
    },
  };
}

const ENDED: ReadonlySet<SessionSummary['state']> = new Set(['complete', 'stopped', 'failed']);

/**
 * Keeps every live session that ended (not one waiting for tool results, which may go on)
 * once, from the sessions list main announces. `recordingOf` says where a session's bytes are
 * (its recording or its spool file). Returns how to stop: it stops following the list and
 * resolves once the sessions already ended are kept (a host quitting waits for it).
 */
export function trackEndedSessions(
  onSessionsChanged: (listener: (list: readonly SessionSummary[]) => void) => () => void,
  history: SessionHistory,
  recordingOf: (summary: SessionSummary) => { path: string; spool: boolean } | null,
  onAdded: () => void = () => {},
  onError: (error: unknown) => void = () => {},
): () => Promise<void> {
  const done = new Set<string>();
  const adding = new Set<Promise<void>>();
  const unsubscribe = onSessionsChanged((list) => {
    for (const summary of list) {
      if (done.has(summary.id) || summary.source.kind !== 'live' || !ENDED.has(summary.state) || summary.awaitingTools)
        continue;
      const recording = recordingOf(summary);
      if (recording === null) continue;
      done.add(summary.id);
      // Opened now, while it surely exists: closing the session deletes a spool recording,
      // maybe before the add's turn comes, and an open file keeps its bytes readable.
      let fd: number;
      try {
        fd = openSync(recording.path, 'r');
      } catch (error) {
        // No recording to keep (spooling is a safety net that may have failed): nothing to say.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onError(error);
        continue;
      }
      const added = history.add(summary, { ...recording, fd }).then(onAdded, onError);
      adding.add(added);
      void added.finally(() => adding.delete(added));
    }
  });
  return async () => {
    unsubscribe();
    await Promise.all(adding);
  };
}
