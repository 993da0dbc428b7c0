import { basename, resolve } from 'node:path';
import type {
  ConnectRequest,
  Failure,
  OpenFileRequest,
  OpenUploadRequest,
  SessionSummary,
} from '../../../../src-shared/contract/payloads';
import { pendingSetKey } from '../../tool-results/answer-ledger';
import type { SessionRegistry } from '../session-registry';
import type { SessionStore } from '../store/session-store';
import { loadImportedSource, loadRecordingAsRead } from './file-load';

/**
 * File sessions: a file opened (or uploaded, or reopened under an old id) decoded as it is
 * read; a recording whose records come out of order starts over from its index.
 */

/** A session of a failed worker opened again from its file, under the id the renderer knows. */
export interface ReopenRequest {
  sessionId: string;
  path: string;
  title: string;
  format?: ConnectRequest['format'];
}

interface OpenOptions {
  format?: ConnectRequest['format'];
  entry?: number;
  title?: string;
  id?: string;
  /** The file is the temporary copy of an upload named so: messages name the upload, not the copy. */
  uploaded?: string;
  inline?: ConnectRequest['inline'];
}

export function createFileSessions(registry: SessionRegistry) {
  const { deps, now, spooling, batcher, announce, reportError, register, changed, newStore, newId, sessions, uploads } =
    registry;

  const openSourceFile = async (path: string, options: OpenOptions): Promise<SessionSummary> => {
    if (!deps.openSource) throw new Error('Opening files is not available in this host');
    const absolute = resolve(path);
    let session: SessionStore | null = null;
    const source = await deps
      .openSource(absolute, {
        ...(options.entry !== undefined ? { harEntry: options.entry } : {}),
        // A recording is decoded as it is read: its first rows come before the rest of the file is.
        stream: true,
        onDiagnostic: (d) => session?.addDiagnostics([d]),
      })
      .catch((error: unknown) => {
        if (options.uploaded === undefined || !(error instanceof Error)) throw error;
        throw new Error(error.message.replaceAll(absolute, options.uploaded));
      });
    const init = {
      id: options.id ?? newId(),
      title: options.title ?? basename(absolute),
      source: {
        kind: 'file' as const,
        path: absolute,
        importer: source.kind,
        ...(options.uploaded !== undefined ? { uploaded: true } : {}),
      },
      createdAt: now(),
      ...(options.format ? { format: options.format } : {}),
      ...(options.inline ? { inline: options.inline } : {}),
      // A recording's raw bytes are read back from it by offset, not copied.
      ...(source.kind === 'recording' ? { recording: absolute } : {}),
      ...spooling,
    };
    const data = newStore(init);
    data.addDiagnostics(source.diagnostics);
    session = data;
    data.state = 'loading';
    const rt = register(data, {
      loading: true,
      run: source.legs[0]?.request ?? null,
      networkChunks: source.kind === 'recording',
    });
    // A session reloaded under its old id is not a file the user opened.
    // Nor is an upload's copy (removed when the session closes).
    if (options.id === undefined && options.uploaded === undefined) deps.onFileOpened?.(absolute);
    const loadOptions = { now, cancelled: () => rt.closed };
    /**
     * A recording whose records were not in the order a decoder can follow as they come
     * (interleaved legs) starts over, a new generation of the session, decoded from its index.
     */
    const startOver = (): SessionStore => {
      const fresh = newStore({ ...init, generation: rt.data.generation + 1 });
      fresh.state = 'loading';
      fresh.addDiagnostics(source.diagnostics);
      batcher.forget(init.id);
      rt.data.dispose();
      rt.data = session = fresh;
      changed(init.id);
      return fresh;
    };
    const load = async (): Promise<void> => {
      if (source.readRecords && (await loadRecordingAsRead(rt.data, source, loadOptions))) return;
      if (rt.closed) return;
      await loadImportedSource(source.readRecords ? startOver() : rt.data, source, loadOptions);
    };
    void load()
      .then(() => {
        if (rt.closed) return;
        rt.run ??= rt.data.legs[0]?.request ?? null;
        rt.data.state = 'complete';
      })
      .catch((error: unknown) => {
        const failure: Failure = {
          kind: 'import',
          message: `Reading ${absolute} failed: ${error instanceof Error ? error.message : String(error)}`,
        };
        rt.data.state = 'failed';
        rt.data.failure = failure;
        reportError(init.id, failure);
      })
      .finally(() => {
        rt.loading = false;
        if (rt.closed) return;
        const pending = rt.data.pendingTools();
        // A recording that sent the results of its last pause (and ends before the continuation) is not paused any more.
        const sent = pending !== null && source.actions.some((a) => a.kind === 'tool-results' && a.leg === pending.leg);
        if (sent) {
          const key = pendingSetKey(pending.leg, pending.block.id);
          rt.ledger.claim(key, {});
          rt.ledger.settle(key, 'sent', 'the recording holds their POST and ends before the continuation');
        }
        // A file that ends paused on frontend tools stays open for its answer (like a live session).
        if (pending === null || sent) rt.data.finish();
        batcher.flush(rt.data);
        announce();
      });
    return data.summary();
  };

  function openFile({ path, format, entry, title, inline }: OpenFileRequest): Promise<SessionSummary> {
    return openSourceFile(path, {
      ...(format ? { format } : {}),
      ...(entry !== undefined ? { entry } : {}),
      ...(title ? { title } : {}),
      ...(inline ? { inline } : {}),
    });
  }

  async function openUpload({ name, base64, format, entry, inline }: OpenUploadRequest): Promise<SessionSummary> {
    const path = await uploads.write(name, Buffer.from(base64, 'base64'));
    try {
      const summary = await openSourceFile(path, {
        ...(format ? { format } : {}),
        ...(entry !== undefined ? { entry } : {}),
        ...(inline ? { inline } : {}),
        title: name,
        uploaded: name,
      });
      registry.runtimeOf(summary.id).uploadPath = path;
      return summary;
    } catch (error) {
      await uploads.remove(path);
      throw error;
    }
  }

  function reopen({ sessionId, path, title, format }: ReopenRequest): Promise<SessionSummary> {
    if (sessions.has(sessionId)) return Promise.reject(new Error(`Session ${sessionId} is open already`));
    return openSourceFile(path, { id: sessionId, title, ...(format ? { format } : {}) });
  }

  return { openFile, openUpload, reopen };
}
