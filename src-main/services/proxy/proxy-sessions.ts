import { join } from 'node:path';
import type { LegEndInfo, ProxyExchange, ProxyState } from '../../../src-shared/contract/payloads';
import { redactUrl } from '../../../src-shared/recording/redact';
import { matchEvidence } from '../../../src-shared/dialects/evidence';
import { DIALECT_REGISTRY } from '../../../src-shared/dialects/registry';
import { announcesStream, decidedByFirstBytes, framingOfHead } from '../../../src-shared/pipeline/leg-framing';
import type { RecordedRequest, RecordedResponse } from '../../../src-shared/recording/types';
import { startReverseProxy, type ExchangeTap, type ReverseProxy } from './reverse-proxy';

/** A session the proxy feeds: legs opened as event streams pass (implemented by the session service). */
export interface ExternalSession {
  readonly id: string;
  /** The agent uuid of a paused run's pending frontend tools; null unless the session waits for them. */
  waitingAgent(): string | null;
  startLeg(kind: 'run' | 'tool-results', request: RecordedRequest): ExternalLeg;
}

export interface ExternalLeg {
  response(head: RecordedResponse): void;
  /** Returns a promise while the session cannot take more yet (its recording is behind): read on when it resolves. */
  chunk(bytes: Uint8Array, receivedAt: number): Promise<void> | undefined;
  end(end: LegEndInfo): void;
}

export interface ExternalSessions {
  open(init: { title: string; method: string; url: string; recordTo?: string }): Promise<ExternalSession>;
}

export interface RecordingProxyOptions {
  port: number;
  target: string;
  recordDir?: string;
  sessions: ExternalSessions;
  now: () => number;
  onChanged: (state: ProxyState) => void;
}

export interface RecordingProxy {
  state(): ProxyState;
  close(): Promise<void>;
}

/** Bytes of a stream held while its session opens; past this the proxy stops reading the server until it is open. */
const MAX_EARLY_BYTES = 64 * 1024;

/** Exchanges kept for the list; older ones drop off. */
export const MAX_LISTED_EXCHANGES = 500;

/**
 * The recording proxy: a reverse proxy whose every streamed response (one whose head announces
 * a stream: `text/event-stream`, NDJSON, the AI SDK's v4 data stream header; or a JSON array
 * from an endpoint a dialect streams arrays from) becomes a session, recorded as it passes. A POST to …/tool_results whose body names the agent of a
 * paused proxied run continues that run as its next leg, as the inspector's own answers do.
 * Other requests are forwarded and listed.
 */
/**
 * A tap decided by the body's first chunk, as a live connection decides a JSON body: one that
 * starts as an array is a stream, tapped (`open`) from that chunk on; any other passes untapped.
 */
function tapIfArray(open: () => ExchangeTap): ExchangeTap {
  /** undefined: no chunk yet; null: no stream. */
  let tap: ExchangeTap | null | undefined;
  return {
    chunk(bytes, at) {
      tap ??= framingOfHead(bytes) === 'json-array' ? open() : null;
      return tap?.chunk(bytes, at);
    },
    end(outcome) {
      tap?.end(outcome);
    },
  };
}

export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  let target: URL;
  try {
    target = new URL(options.target);
  } catch {
    throw new Error(`The proxy target must be a URL such as http://127.0.0.1:8787, not '${options.target}'`);
  }
  const exchanges: ProxyExchange[] = [];
  const paused: ExternalSession[] = [];
  let sessionCount = 0;
  let proxy: ReverseProxy | null = null;
  const state = (): ProxyState => ({
    url: proxy?.url ?? '',
    target: redactUrl(target.href),
    ...(options.recordDir !== undefined ? { recordDir: options.recordDir } : {}),
    // The list and the CLI's lines show paths: a `?token=…` in one is redacted there (docs/security.md).
    exchanges: exchanges.map((e) => ({ ...e, path: redactUrl(e.path) })),
  });

  /** The session a tool-results POST continues: the paused one waiting on the body's agent_uuid. */
  const continuationOf = (request: RecordedRequest): ExternalSession | undefined => {
    if (
      request.method !== 'POST' ||
      !/\/tool_results\/?(\?|$)/.test(new URL(request.url).pathname + new URL(request.url).search)
    )
      return undefined;
    let agent: unknown;
    try {
      agent = (JSON.parse(request.body ?? '') as { agent_uuid?: unknown }).agent_uuid;
    } catch {
      return undefined;
    }
    return paused.find((s) => s.waitingAgent() !== null && s.waitingAgent() === agent);
  };

  const streamTap = (request: RecordedRequest, response: RecordedResponse, exchange: ProxyExchange): ExchangeTap => {
    // Chunks that pass before the session is open (it opens a recording file) wait here.
    const early: { bytes: Uint8Array; at: number }[] = [];
    let earlyBytes = 0;
    let ended: LegEndInfo | null = null;
    let leg: ExternalLeg | null = null;
    const continued = continuationOf(request);
    const opening = continued
      ? Promise.resolve(continued)
      : options.sessions.open({
          title: `Proxy ${request.method} ${new URL(request.url).pathname}`,
          method: request.method,
          url: request.url,
          ...(options.recordDir !== undefined
            ? {
                recordTo: join(
                  options.recordDir,
                  `proxy-${new Date(options.now()).toISOString().replace(/[:.]/g, '-')}-${++sessionCount}.recording`,
                ),
              }
            : {}),
        });
    let session: ExternalSession | null = null;
    /** The session could not be opened: the stream still passes, unrecorded. */
    let dropped = false;
    const finishLeg = (end: LegEndInfo): void => {
      leg?.end(end);
      // A run paused on frontend tools may be continued by the frontend's next POST.
      if (session && session.waitingAgent() !== null) paused.push(session);
    };
    void opening.then(
      (opened) => {
        session = opened;
        if (continued) paused.splice(paused.indexOf(continued), 1);
        exchange.sessionId = opened.id;
        options.onChanged(state());
        leg = opened.startLeg(continued ? 'tool-results' : 'run', request);
        leg.response(response);
        // At most MAX_EARLY_BYTES and a read: a recording that falls behind holds the next read back.
        for (const c of early.splice(0)) void leg.chunk(c.bytes, c.at);
        if (ended) finishLeg(ended);
      },
      (error: unknown) => {
        dropped = true;
        early.length = 0;
        exchange.error = `Not recorded: ${error instanceof Error ? error.message : String(error)}`;
        options.onChanged(state());
      },
    );
    return {
      chunk(bytes, at) {
        // The proxy reuses no buffer, but a copy keeps the session independent of Node's pool.
        if (dropped) return undefined;
        const copy = bytes.slice();
        if (leg) return leg.chunk(copy, at);
        early.push({ bytes: copy, at });
        earlyBytes += copy.byteLength;
        // The recording is still being created: past a bound, the server waits for it.
        return earlyBytes > MAX_EARLY_BYTES
          ? opening.then(
              () => undefined,
              () => undefined,
            )
          : undefined;
      },
      end(outcome) {
        const end: LegEndInfo =
          outcome.reason === 'done'
            ? { reason: 'complete' }
            : {
                reason: outcome.reason === 'aborted' ? 'stopped' : 'failed',
                ...(outcome.message !== undefined ? { message: outcome.message } : {}),
              };
        if (leg) finishLeg(end);
        else ended = end;
      },
    };
  };

  proxy = await startReverseProxy({
    target,
    port: options.port,
    now: options.now,
    onResponse: (request, response, exchange) => {
      if (announcesStream(response.headers)) return streamTap(request, response, exchange);
      // A JSON body from an endpoint a dialect streams arrays from (Gemini's :streamGenerateContent
      // without alt=sse) is a stream when it starts as an array. Only there: a REST API's lists
      // are arrays too, and would each become a session.
      if (decidedByFirstBytes(response) && matchEvidence(DIALECT_REGISTRY.modules, { url: request.url }))
        return tapIfArray(() => streamTap(request, response, exchange));
      return null;
    },
    onExchange: (exchange) => {
      if (!exchanges.includes(exchange)) {
        exchanges.push(exchange);
        if (exchanges.length > MAX_LISTED_EXCHANGES) exchanges.shift();
      }
      options.onChanged(state());
    },
  });
  return {
    state,
    close: async () => {
      await proxy?.close();
    },
  };
}
