import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REDACTED } from '../../../src-shared/recording/redact';
import { createRechunker } from '../../../src-shared/sse/rechunk';
import type { HeaderList } from '../../../src-shared/recording/types';
import { openSource } from '../importers';
import type { ImportedLeg, ImportedSource, OpenSourceOptions } from '../importers/types';
import { createSleeper, speedError, systemClock, type ReplayClock, type ReplaySpeed } from './clock';
import { rechunkError, rechunkSize, type RechunkOption } from './rechunk';
import { eventTime, gapBetween, timeline } from './timeline';

/**
 * Serves a recording as a live SSE endpoint on 127.0.0.1, so a frontend under test can be
 * pointed at it instead of a real agent server:
 *
 * - GET or POST on any path streams leg 0 (the recorded run) and rewinds the session;
 * - POST …/agent/tool_results streams the next recorded continuation leg (legs 1, 2, … in
 *   order), or answers 409 when the recording has no more;
 * - with the original timing (divided by `speed`) or as fast as possible, optionally re-cut
 *   into writes of N bytes or of one byte.
 *
 * The body bytes are exactly the recorded bytes; only their cutting and pacing change. The
 * recorded status and headers are sent back, minus those that described the original
 * transfer (length, encoding) and redacted values. A web page may read the replay only from
 * an origin the user allowed (`allowOrigins`, `serve --allow-origin`): by default no CORS
 * header is sent, so no page of another origin can read what is served (docs/security.md).
 */

export interface ReplayServerOptions {
  source?: ImportedSource;
  path?: string;
  /** Passed to openSource when `path` is given (e.g. harEntry). */
  open?: Omit<OpenSourceOptions, 'onDiagnostic'>;
  port?: number;
  host?: string;
  speed?: ReplaySpeed;
  rechunk?: RechunkOption;
  clock?: ReplayClock;
  maxGapMs?: number;
  /** Origins (`http://localhost:5173`, or `*` for any) whose pages may read the replay; none by default. */
  allowOrigins?: readonly string[];
  /** Called for each request with the leg served (null: none). */
  onRequest?: (request: { method: string; path: string; leg: number | null }) => void;
}

export interface ReplayServer {
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  port: number;
  host: string;
  source: ImportedSource;
  close(): Promise<void>;
}

const TOOL_RESULTS = /\/agent\/tool_results\/?$/;

/** Headers that describe the original transfer, not the stream: never replayed. */
const TRANSFER_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'connection',
  'keep-alive',
  'date',
  'access-control-allow-origin',
]);

const DEFAULT_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-cache'],
  ['x-accel-buffering', 'no'],
];

/** CORS headers for a request from `origin`: only when the user allowed it, naming it (or `*`). */
function corsHeaders(allowed: readonly string[], origin: string | undefined): HeaderList {
  const answer = allowed.includes('*') ? '*' : origin !== undefined && allowed.includes(origin) ? origin : null;
  if (answer === null) return [];
  return [
    ['access-control-allow-origin', answer],
    ['access-control-allow-headers', '*'],
    ['access-control-allow-methods', 'GET, POST, OPTIONS'],
    ['access-control-expose-headers', '*'],
    ['vary', 'Origin'],
  ];
}

function responseHead(leg: ImportedLeg, cors: HeaderList): { status: number; statusText: string; headers: HeaderList } {
  const recorded = leg.response;
  const headers = recorded
    ? recorded.headers.filter(
        ([name, value]) => !TRANSFER_HEADERS.has(name.toLowerCase()) && !name.startsWith(':') && value !== REDACTED,
      )
    : DEFAULT_HEADERS;
  return {
    status: recorded?.status ?? 200,
    statusText: recorded?.statusText ?? 'OK',
    headers: [...headers, ...cors, ['x-stream-inspector-replay', `leg ${leg.index}`]],
  };
}

function writeHead(res: ServerResponse, status: number, statusText: string, headers: HeaderList): void {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  res.writeHead(status, statusText || undefined, flat);
}

function sendJson(res: ServerResponse, status: number, body: object, cors: HeaderList): void {
  writeHead(res, status, '', [['content-type', 'application/json'], ...cors]);
  res.end(JSON.stringify(body));
}

async function resolveSource(options: ReplayServerOptions): Promise<ImportedSource> {
  if (options.source) return options.source;
  if (options.path) return openSource(options.path, options.open);
  throw new TypeError('startReplayServer needs a source or a path.');
}

export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const speed = options.speed ?? 1;
  const clock = options.clock ?? systemClock;
  const maxGapMs = options.maxGapMs ?? Infinity;
  const speedProblem = speedError(speed);
  if (speedProblem) throw new RangeError(speedProblem);
  if (options.rechunk !== undefined) {
    const problem = rechunkError(options.rechunk);
    if (problem) throw new RangeError(problem);
  }
  const source = await resolveSource(options);
  if (source.legs.length === 0) throw new RangeError(`${source.path}: the recording holds no leg to serve.`);

  /** The continuation leg the next tool_results POST gets. */
  let nextContinuation = 1;

  /** Streams one leg's bytes with its recorded pacing; stops when the client goes away. */
  async function serveLeg(leg: ImportedLeg, res: ServerResponse, cors: HeaderList): Promise<void> {
    const head = responseHead(leg, cors);
    writeHead(res, head.status, head.statusText, head.headers);
    res.flushHeaders();
    const sleeper = createSleeper(clock);
    let gone = false;
    res.on('close', () => {
      gone = true;
      sleeper.interrupt();
    });
    const rechunker = options.rechunk !== undefined ? createRechunker(rechunkSize(options.rechunk)) : null;
    const write = async (bytes: Uint8Array): Promise<void> => {
      if (!gone && !res.write(bytes)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    };
    const events = timeline(source, [leg]);
    let lastTime: number | undefined;
    try {
      for await (const event of events) {
        if (gone) break;
        const t = eventTime(event);
        if (speed !== 'fast') await sleeper.sleep({ left: gapBetween(lastTime, t, maxGapMs) }, speed);
        lastTime = t ?? lastTime;
        if (gone || event.kind !== 'chunk') continue;
        for (const piece of rechunker ? rechunker.push(event.bytes) : [event.bytes]) await write(piece);
      }
      for (const piece of rechunker?.end() ?? []) await write(piece);
    } finally {
      await events.return(undefined);
      if (!gone) res.end();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const cors = corsHeaders(options.allowOrigins ?? [], req.headers.origin);
    if (method === 'OPTIONS') {
      writeHead(res, 204, 'No Content', cors);
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      options.onRequest?.({ method, path, leg: null });
      sendJson(
        res,
        405,
        { error: 'MethodNotAllowed', message: `The replay server answers GET and POST, not ${method}.` },
        cors,
      );
      return;
    }
    let index = 0;
    if (method === 'POST' && TOOL_RESULTS.test(path)) {
      index = nextContinuation++;
    } else {
      nextContinuation = 1;
    }
    const leg = source.legs[index];
    options.onRequest?.({ method, path, leg: leg ? index : null });
    if (!leg) {
      const continuations = source.legs.length - 1;
      sendJson(
        res,
        409,
        {
          error: 'NoRecordedContinuation',
          message: `The recording has ${continuations} continuation leg(s); all were served. Start again with a new run request.`,
        },
        cors,
      );
      return;
    }
    await serveLeg(leg, res, cors);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          { error: 'ReplayFailed', message },
          corsHeaders(options.allowOrigins ?? [], req.headers.origin),
        );
      else res.destroy(error instanceof Error ? error : new Error(message));
    });
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    source,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
