import { open } from 'node:fs/promises';
import { chunkRecord, headerLine, recordLine } from '../../../src-shared/recording/format';
import { redactBody, redactHeaders, redactRequest, redactUrl } from '../../../src-shared/recording/redact';
import type {
  LegOutcome,
  RecordedAction,
  RecordedRequest,
  RecordedResponse,
  RecordingRecord,
} from '../../../src-shared/recording/types';

/**
 * Writes a session to a recording file (docs/recording-format.md) as it happens. Records
 * are buffered and appended every `flushIntervalMs`, at the end of each leg and on close,
 * so a process killed at any moment loses at most the records of the last interval; the
 * reader reports the torn last line such a kill can leave. Secrets are redacted before
 * anything reaches the buffer. An existing file is never overwritten.
 */

/** The program named in the header of the recordings this project writes. */
export const RECORDING_TOOL = 'agent-stream-inspector';

/** Where the bytes go; the default appends to a file created exclusively. */
export interface RecorderSink {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface FlushAck {
  /** Records (header included) and bytes now in the file. */
  records: number;
  bytes: number;
  chunks: number;
}

export interface RecorderOptions {
  flushIntervalMs?: number;
  /** Redact credentials from URLs, headers and bodies (default true). */
  redact?: boolean;
  /**
   * The clock for record times (ms since the epoch). Chunk times are the caller's
   * `receivedAt`, which must come from the same clock: replay reproduces their differences.
   * Default: `performance.timeOrigin + performance.now()` (the epoch, but monotonic).
   */
  now?: () => number;
  openSink?: (path: string) => Promise<RecorderSink>;
  /** Called after each successful write: everything counted is safe from a process kill. */
  onFlush?: (ack: FlushAck) => void;
  /** A write failed; recording stops and `close()` rejects with the same error. */
  onError?: (error: Error) => void;
  /** Written into the header as the program that made the file. */
  tool?: string;
  /** Written into the header: the dialect the user chose for the session (RecordingHeader.decodeAs). */
  decodeAs?: string;
  /** Buffered bytes that force a write before the interval is up. Default 1 MiB. */
  maxBufferedBytes?: number;
}

export interface Recorder {
  readonly path: string;
  /** Starts the next leg (0 for the first request, then one per continuation) and returns its number. */
  startLeg(request: RecordedRequest): number;
  /** `stream`: whether the inspector decodes the body (false: an error page or one-off answer it shows). */
  response(leg: number, response: RecordedResponse, stream: boolean): void;
  chunk(leg: number, bytes: Uint8Array, receivedAt: number): void;
  action(action: RecordedAction): void;
  endLeg(leg: number, outcome: LegOutcome): void;
  /** Writes what is buffered now; resolves when it is in the file. */
  flush(): Promise<void>;
  /** Ends open legs as `closed`, writes everything, syncs and closes the file. */
  close(): Promise<void>;
  readonly acknowledged: FlushAck;
  /**
   * Bytes taken but not yet in the file (buffered, or queued behind a write in progress). A
   * source faster than the disk makes it grow: slow the source down while it is high.
   */
  readonly backlog: number;
}

export class RecordingExistsError extends Error {
  override readonly name = 'RecordingExistsError';
  constructor(readonly path: string) {
    super(`${path} already exists: a recording never overwrites a file. Choose another name or remove it first.`);
  }
}

/** Creates the file exclusively ('wx'): an existing file is an error, never truncated. */
export async function openFileSink(path: string): Promise<RecorderSink> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RecordingExistsError(path);
    throw error;
  }
  const file = handle;
  return {
    async write(data) {
      for (let written = 0; written < data.length;) {
        const { bytesWritten } = await file.write(data, written, data.length - written);
        written += bytesWritten;
      }
    },
    async close() {
      try {
        await file.sync();
      } finally {
        await file.close();
      }
    },
  };
}

export async function createRecorder(path: string, options: RecorderOptions = {}): Promise<Recorder> {
  const flushIntervalMs = options.flushIntervalMs ?? 200;
  const redact = options.redact ?? true;
  const now = options.now ?? ((): number => performance.timeOrigin + performance.now());
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const sink = await (options.openSink ?? openFileSink)(path);

  let buffer: string[] = [];
  let bufferedBytes = 0;
  let bufferedRecords = 0;
  let bufferedChunks = 0;
  const acknowledged: FlushAck = { records: 0, bytes: 0, chunks: 0 };
  let writes: Promise<void> = Promise.resolve();
  /** Bytes handed to `writes` and not yet written. */
  let queuedBytes = 0;
  let failure: Error | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closing: Promise<void> | null = null;
  let legCount = 0;
  const openLegs = new Set<number>();
  /** Per leg: chunks recorded so far and the stream offset of the next one. */
  const legChunks: { seq: number; offset: number }[] = [];

  const append = (line: string, chunks = 0): void => {
    if (closing) throw new Error(`The recorder for ${path} is closed.`);
    buffer.push(line);
    bufferedBytes += line.length;
    bufferedRecords++;
    bufferedChunks += chunks;
    if (bufferedBytes >= maxBufferedBytes) flushInBackground();
    else timer ??= setTimeout(flushInBackground, flushIntervalMs);
  };

  const record = (r: RecordingRecord): void => append(recordLine(r), r.type === 'chunk' ? 1 : 0);

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (buffer.length > 0) {
      const data = Buffer.from(buffer.join(''), 'utf8');
      const counts = { records: bufferedRecords, chunks: bufferedChunks };
      buffer = [];
      bufferedBytes = 0;
      bufferedRecords = 0;
      bufferedChunks = 0;
      queuedBytes += data.length;
      writes = writes.then(async () => {
        try {
          if (failure) return;
          await sink.write(data);
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          options.onError?.(failure);
          return;
        } finally {
          queuedBytes -= data.length;
        }
        acknowledged.records += counts.records;
        acknowledged.chunks += counts.chunks;
        acknowledged.bytes += data.length;
        options.onFlush?.({ ...acknowledged });
      });
    }
    return writes.then(() => {
      if (failure) throw failure;
    });
  }

  /** A write failure is kept and reported through onError and close(); nothing else to do here. */
  const flushInBackground = (): void => void flush().catch(() => undefined);

  /** What an end record counts of its leg: the chunk records written and their bytes. */
  const writtenOf = (leg: number): { chunks: number; bytes: number } => {
    const written = legChunks[leg] as { seq: number; offset: number };
    return { chunks: written.seq, bytes: written.offset };
  };

  const checkLeg = (leg: number): void => {
    if (!Number.isInteger(leg) || leg < 0 || leg >= legCount)
      throw new RangeError(`Leg ${leg} was never started in the recording ${path}.`);
  };

  append(
    headerLine({
      createdAt: new Date().toISOString(),
      t: now(),
      redacted: redact,
      ...(options.tool ? { tool: options.tool } : {}),
      ...(options.decodeAs ? { decodeAs: options.decodeAs } : {}),
    }),
  );
  try {
    await flush();
  } catch (error) {
    await sink.close().catch(() => undefined);
    throw error;
  }

  return {
    path,
    get acknowledged() {
      return { ...acknowledged };
    },
    get backlog() {
      return bufferedBytes + queuedBytes;
    },
    startLeg(request) {
      const leg = legCount++;
      openLegs.add(leg);
      legChunks[leg] = { seq: 0, offset: 0 };
      record({ type: 'leg', leg, t: now(), request: redact ? redactRequest(request) : request });
      return leg;
    },
    response(leg, response, stream) {
      checkLeg(leg);
      record({
        type: 'response',
        leg,
        t: now(),
        status: response.status,
        statusText: response.statusText,
        headers: redact ? redactHeaders(response.headers) : response.headers,
        stream,
      });
    },
    chunk(leg, bytes, receivedAt) {
      checkLeg(leg);
      const next = legChunks[leg] as { seq: number; offset: number };
      record(chunkRecord(leg, receivedAt, bytes, next.seq, next.offset));
      next.seq++;
      next.offset += bytes.byteLength;
    },
    action(action) {
      // A continuation's body carries the run's extra fields (an api_key beside agent_uuid): redacted like a request's.
      const written = redact
        ? {
            ...action,
            body: redactBody(action.body, 'application/json') ?? '',
            ...(action.url !== undefined ? { url: redactUrl(action.url) } : {}),
          }
        : action;
      record({ type: 'action', t: now(), action: written });
    },
    endLeg(leg, outcome) {
      checkLeg(leg);
      openLegs.delete(leg);
      record({
        type: 'end',
        leg,
        t: now(),
        reason: outcome.reason,
        ...(outcome.message !== undefined ? { message: outcome.message } : {}),
        ...writtenOf(leg),
      });
      flushInBackground();
    },
    flush,
    close() {
      if (!closing) {
        for (const leg of openLegs)
          record({
            type: 'end',
            leg,
            t: now(),
            reason: 'closed',
            message: 'The recording was closed while the leg was open.',
            ...writtenOf(leg),
          });
        openLegs.clear();
        closing = flush().finally(() => sink.close());
      }
      return closing;
    },
  };
}
