import { basename, resolve } from 'node:path';
import type {
  AbortUploadRequest,
  BeginUploadRequest,
  ConnectRequest,
  Failure,
  OpenFileRequest,
  OpenHarEntriesRequest,
  OpenUploadRequest,
  SessionSummary,
  UploadChunkRequest,
  UploadTicket,
} from '../../../../src-shared/contract/payloads';
import { HAR_ENTRIES_MAX } from '../../../../src-shared/contract/payloads';
import { pendingSetKey } from '../../tool-results/answer-ledger';
import { checkFindings, checkReportTargets } from '../../importers/check-report-targets';
import { CheckReportError, HarEntryChoiceError, chosenFormat, type ImportedSource } from '../../importers/types';
import { isDialectId } from '../../../../src-shared/dialects/registry';
import type { ImportDiagnostic } from '../../../../src-shared/recording/types';
import { countingSourceFs, nodeSourceFs, type ReadCount, type SourceFs } from '../../importers/source-file';
import type { Runtime, SessionRegistry } from '../session-registry';
import type { SessionInit, SessionStore } from '../store/session-store';
import { loadImportedSource, loadRecordingAsRead } from './file-load';
import { createReportFindings } from './report-findings';
import type { CopiedRun, OpenAgainRequest, ReopenRequest } from './reopen-request';
import { createUploadStream, type UploadStream } from './upload-stream';

/**
 * File sessions: a file opened (or uploaded, or reopened under an old id) decoded as it is
 * read; a recording whose records come out of order starts over from its index.
 */

/** The session a file's findings go to once it loads (rt.data follows a session that starts over). */
interface LoadTarget {
  rt: Runtime | null;
}

interface OpenOptions {
  format?: ConnectRequest['format'];
  /** HAR: the entries to open, in order, as the legs. */
  entry?: number | readonly number[];
  title?: string;
  id?: string;
  /** The file is the copy of this upload, read as it arrives: messages name the upload, not the copy. */
  upload?: UploadStream;
  inline?: ConnectRequest['inline'];
  /** Findings about the file from elsewhere (a check report that opened it), kept as its own are. */
  findings?: readonly ImportDiagnostic[];
  /** The check report that opened the file (the session's source names it). */
  report?: string;
  /** The live run whose received bytes the file is (the session's source names it). */
  copyOf?: CopiedRun;
}

export function createFileSessions(registry: SessionRegistry) {
  const { deps, now, timers, spooling, batcher, announce, reportError, register, changed, newStore, newId, sessions } =
    registry;
  /** Uploads still arriving, by id (their pieces name it). */
  const arriving = new Map<string, UploadStream>();
  /** Uploads begun and not yet opened as a session (openUpload takes them from here). */
  const unopened = new Map<string, UploadStream>();
  const reportFindings = createReportFindings(deps.openSource);

  /**
   * The file's source; for a HAR that asks which entries to open (none chosen yet), the
   * entries. The findings it makes once the session loads it go to `target`'s session (those
   * made before are in the source's list, which load() adds).
   */
  const openSourceOf = async (
    absolute: string,
    options: OpenOptions,
    target: LoadTarget,
    fs: SourceFs,
  ): Promise<ImportedSource | HarEntryChoiceError> => {
    if (!deps.openSource) throw new Error('Opening files is not available in this host');
    try {
      return await deps.openSource(absolute, {
        fs,
        ...(options.entry !== undefined ? { harEntry: options.entry } : {}),
        // A recording is decoded as it is read: its first rows come before the rest of the file is.
        stream: true,
        onDiagnostic: (d) => target.rt?.data.addDiagnostics([d]),
      });
    } catch (error) {
      if (error instanceof HarEntryChoiceError && error.entries.length <= HAR_ENTRIES_MAX) return error;
      if (options.upload === undefined || !(error instanceof Error)) throw error;
      throw new Error(error.message.replaceAll(absolute, options.upload.name));
    }
  };

  const openSourceFile = async (path: string, options: OpenOptions): Promise<SessionSummary> => {
    const absolute = resolve(path);
    const target: LoadTarget = { rt: null };
    // Reads are counted for the progress bar; an upload's are reads of the file as it arrives.
    const { fs, count } = countingSourceFs(options.upload?.fs ?? nodeSourceFs);
    const source = await openSourceOf(absolute, options, target, fs);
    const init = {
      id: options.id ?? newId(),
      title: options.title ?? basename(absolute),
      source: {
        kind: 'file' as const,
        path: absolute,
        importer: source instanceof HarEntryChoiceError ? 'har' : source.kind,
        ...(options.upload !== undefined ? { uploaded: true } : {}),
        ...(options.entry !== undefined && !(source instanceof HarEntryChoiceError)
          ? { entries: typeof options.entry === 'number' ? [options.entry] : [...options.entry] }
          : {}),
        ...(options.report !== undefined ? { report: options.report } : {}),
        ...(options.copyOf !== undefined ? { copyOf: options.copyOf } : {}),
      },
      createdAt: now(),
      // What the user asks for now, else what the file says was chosen when it was written.
      format: chosenFormat(options.format, source instanceof HarEntryChoiceError ? null : source, isDialectId),
      ...(options.inline ? { inline: options.inline } : {}),
      // A recording's raw bytes are read back from it by offset, not copied.
      ...(!(source instanceof HarEntryChoiceError) && source.kind === 'recording' ? { recording: absolute } : {}),
      ...spooling,
    };
    const data = newStore(init);
    data.state = 'loading';
    const rt = register(data, {
      loading: true,
      run: source instanceof HarEntryChoiceError ? null : (source.legs[0]?.request ?? null),
      networkChunks: !(source instanceof HarEntryChoiceError) && source.kind === 'recording',
      ...(options.upload ? { upload: options.upload } : {}),
    });
    // A session reloaded under its old id is not a file the user opened.
    // Nor is an upload's copy (removed when the session closes).
    if (options.id === undefined && options.upload === undefined) deps.onFileOpened?.(absolute);
    if (source instanceof HarEntryChoiceError) {
      // Nothing is loaded until the user has chosen (openHarEntries).
      rt.harChoice = {
        entries: source.entries,
        choose: async (entries) => {
          const chosenTarget: LoadTarget = { rt: null };
          const chosen = await openSourceOf(absolute, { ...options, entry: entries }, chosenTarget, fs);
          if (chosen instanceof HarEntryChoiceError) throw new Error('Choose at least one HAR entry to open');
          rt.harChoice = undefined;
          rt.run = chosen.legs[0]?.request ?? null;
          // The entries are the session's source from now on: a reload opens them again.
          const chosenInit = { ...init, source: { ...init.source, entries: [...entries] } };
          rt.data.source = chosenInit.source;
          load(rt, chosen, chosenInit, chosenTarget, count, options.findings);
        },
      };
      return registry.summaryOf(rt);
    }
    load(rt, source, init, target, count, options.findings);
    return data.summary();
  };

  /** Decodes the source into the session as it is read, then settles it (complete, failed, or paused on tools). */
  const load = (
    rt: Runtime,
    source: ImportedSource,
    init: SessionInit,
    target: LoadTarget,
    count: ReadCount,
    findings: readonly ImportDiagnostic[] = [],
  ): void => {
    rt.data.addDiagnostics(findings);
    rt.data.addDiagnostics(source.diagnostics);
    target.rt = rt;
    const upload = rt.upload;
    const finishProgress = registry.progress.track(init.id, () => ({
      task: upload ? 'upload' : 'open',
      total: upload?.size ?? count.size(),
      received: upload?.received() ?? count.size(),
      decoded: count.read(),
      envelopes: rt.data.envelopeCount,
    }));
    const loadOptions = { now, cancelled: () => rt.closed };
    /**
     * A recording whose records were not in the order a decoder can follow as they come
     * (interleaved legs) starts over, a new generation of the session, decoded from its index.
     */
    const startOver = (): SessionStore => {
      const fresh = newStore({ ...init, generation: rt.data.generation + 1 });
      fresh.state = 'loading';
      fresh.addDiagnostics(findings);
      fresh.addDiagnostics(source.diagnostics);
      batcher.forget(init.id);
      rt.data.dispose();
      rt.data = fresh;
      changed(init.id);
      return fresh;
    };
    const read = async (): Promise<void> => {
      if (source.readRecords && (await loadRecordingAsRead(rt.data, source, loadOptions))) return;
      if (rt.closed) return;
      await loadImportedSource(source.readRecords ? startOver() : rt.data, source, loadOptions);
    };
    void read()
      .then(() => {
        if (rt.closed) return;
        rt.run ??= rt.data.legs[0]?.request ?? null;
        rt.data.state = 'complete';
      })
      .catch((error: unknown) => {
        if (rt.closed) return;
        const failure: Failure = {
          kind: 'import',
          message: `Reading ${upload?.name ?? source.path} failed: ${error instanceof Error ? error.message : String(error)}`,
        };
        rt.data.state = 'failed';
        rt.data.failure = failure;
        reportError(init.id, failure);
      })
      .finally(() => {
        rt.loading = false;
        finishProgress();
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
  };

  async function openFile({ path, format, entry, title, inline }: OpenFileRequest): Promise<SessionSummary> {
    let report: CheckReportError;
    try {
      return await openSourceFile(path, {
        ...(format ? { format } : {}),
        ...(entry !== undefined ? { entry } : {}),
        ...(title ? { title } : {}),
        ...(inline ? { inline } : {}),
      });
    } catch (error) {
      if (!(error instanceof CheckReportError)) throw error;
      report = error;
    }
    // A `check` report opens the recordings it checked (those that failed, when some did),
    // each a session with what failed among its findings; the open answers with the first.
    const reportPath = resolve(path);
    const opened: SessionSummary[] = [];
    for (const target of await checkReportTargets(reportPath, report.recordings))
      opened.push(
        await openSourceFile(target.path, { findings: checkFindings(reportPath, target), report: reportPath }),
      );
    return opened[0] as SessionSummary;
  }

  /** Creates the upload's file in the private upload folder; its pieces follow (sendUploadChunk). */
  async function beginUpload({ name, size }: BeginUploadRequest): Promise<UploadTicket> {
    const { path, handle } = await registry.uploads.create(name);
    const uploadId = `u${newId()}`;
    const stream = createUploadStream({
      name,
      path,
      size,
      handle,
      timers,
      ...(deps.uploadIdleMs !== undefined ? { idleMs: deps.uploadIdleMs } : {}),
      onEnd: (state) => {
        arriving.delete(uploadId);
        // An upload cut before it was opened has no session to show it: it goes.
        if (state === 'cut' && unopened.delete(uploadId)) void stream.close().then(() => registry.uploads.remove(path));
      },
    });
    arriving.set(uploadId, stream);
    unopened.set(uploadId, stream);
    return { uploadId };
  }

  const uploadOf = (uploadId: string): UploadStream => {
    const upload = arriving.get(uploadId);
    if (!upload) throw new Error(`No upload '${uploadId}' is arriving (it was cut, or its session was closed)`);
    return upload;
  };

  async function sendUploadChunk({ uploadId, offset, base64 }: UploadChunkRequest): Promise<void> {
    await uploadOf(uploadId).append(offset, Buffer.from(base64, 'base64'));
  }

  function abortUpload({ uploadId, message }: AbortUploadRequest): Promise<void> {
    uploadOf(uploadId).cut(message || 'the page stopped sending it');
    return Promise.resolve();
  }

  /** Opens an upload as it arrives (`uploadId`), or one sent whole (`base64`) by streaming it to itself first. */
  async function openUpload({
    name,
    uploadId,
    base64,
    format,
    entry,
    inline,
  }: OpenUploadRequest): Promise<SessionSummary> {
    let id = uploadId;
    if (id === undefined) {
      if (base64 === undefined) throw new Error(`The upload of ${name} carries neither an upload id nor its bytes`);
      const bytes = Buffer.from(base64, 'base64');
      id = (await beginUpload({ name, size: bytes.length })).uploadId;
      if (bytes.length > 0) await uploadOf(id).append(0, bytes);
    }
    const upload = unopened.get(id);
    if (!upload) throw new Error(`Unknown upload '${id}' (it may have been cut or opened already)`);
    unopened.delete(id);
    try {
      return await openSourceFile(upload.path, {
        ...(format ? { format } : {}),
        ...(entry !== undefined ? { entry } : {}),
        ...(inline ? { inline } : {}),
        title: name,
        upload,
      });
    } catch (error) {
      await upload.close();
      await registry.uploads.remove(upload.path);
      throw error;
    }
  }

  /** Closes the uploads no session took (the service is going away). */
  async function dispose(): Promise<void> {
    const left = [...unopened.values()];
    unopened.clear();
    for (const upload of left) await upload.close();
  }

  /** Loads the chosen entries of a HAR that waits for a choice into its session. */
  async function openHarEntries({ sessionId, entries }: OpenHarEntriesRequest): Promise<SessionSummary> {
    const rt = registry.runtimeOf(sessionId);
    if (!rt.harChoice) throw new Error(`Session ${sessionId} is not a HAR file waiting for a choice of entries`);
    if (entries.length === 0) throw new Error('Choose at least one HAR entry to open');
    await rt.harChoice.choose(entries);
    announce();
    return registry.summaryOf(rt);
  }

  /** Opens a session of a failed worker again, as it was opened (openAgain), under its id. */
  async function reopen({ sessionId, owned, ...request }: ReopenRequest): Promise<SessionSummary> {
    if (sessions.has(sessionId)) throw new Error(`Session ${sessionId} is open already`);
    const summary = await openAgain(request, sessionId);
    if (owned) registry.runtimeOf(sessionId).copy = request.path;
    return summary;
  }

  /**
   * Opens a file session's file again, as it was opened: the same HAR entries, in-text reading
   * and, for a recording a check report opened, its failures read from the report again (none
   * when the report can no longer be read or no longer names it).
   */
  async function openAgain(
    { path, title, format, entries, report, inline, upload, copyOf }: OpenAgainRequest,
    id?: string,
  ): Promise<SessionSummary> {
    return openSourceFile(path, {
      ...(id !== undefined ? { id } : {}),
      ...(upload !== undefined ? { upload } : {}),
      ...(copyOf !== undefined ? { copyOf } : {}),
      title,
      ...(format ? { format } : {}),
      ...(entries !== undefined ? { entry: entries } : {}),
      ...(inline ? { inline } : {}),
      ...(report !== undefined ? { report, findings: await reportFindings(report, resolve(path)) } : {}),
    });
  }

  return {
    openFile,
    beginUpload,
    sendUploadChunk,
    abortUpload,
    openUpload,
    openHarEntries,
    reopen,
    openAgain: (request: OpenAgainRequest) => openAgain(request),
    dispose,
  };
}
