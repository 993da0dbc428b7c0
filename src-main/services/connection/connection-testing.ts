import { afterEach } from 'vitest';
import type { ConnectionDeps, ConnectionHandlers, ConnectionSpec } from './connection';
import { startLoopbackServer, type LoopbackHandler, type LoopbackServer } from './loopback-testing';
import type { ManualClock } from '../replay/manual-clock';

/** What a connection handed its handlers: chunks with their receive times, answers, and the bytes of a refused body. */
interface Captured {
  chunks: { bytes: Uint8Array; receivedAt: number }[];
  heads: { status: number; accepted: boolean }[];
  rejected: number;
  text(): string;
}

export function capture(): Captured & ConnectionHandlers {
  const captured: Captured & ConnectionHandlers = {
    chunks: [],
    heads: [],
    rejected: 0,
    text: () => Buffer.concat(captured.chunks.map((c) => c.bytes)).toString('utf8'),
    onChunk: (bytes, receivedAt) => captured.chunks.push({ bytes, receivedAt }),
    onResponse: (head, accepted) => captured.heads.push({ status: head.status, accepted }),
    onRejectedChunk: (bytes) => (captured.rejected += bytes.byteLength),
  };
  return captured;
}

/** The connection's receive times and timeouts, on a clock the test moves. */
export function onClock(clock: ManualClock): ConnectionDeps {
  return { now: () => clock.now(), timers: clock };
}

/** Resolves on the next chunk the sink receives (the event a test waits for, instead of a sleep). */
export function nextChunk(sink: ConnectionHandlers): Promise<void> {
  const onChunk = sink.onChunk.bind(sink);
  return new Promise((resolve) => {
    sink.onChunk = (bytes, receivedAt) => {
      onChunk(bytes, receivedAt);
      sink.onChunk = onChunk;
      resolve();
    };
  });
}

/**
 * One loopback server per test, closed after it: `serve` starts it, `get` makes a GET of a
 * path on it, `server` is the one running.
 */
export function loopbackPerTest(): {
  serve: (handler: LoopbackHandler) => Promise<LoopbackServer>;
  get: (path: string, extra?: Partial<ConnectionSpec>) => ConnectionSpec;
  server: () => LoopbackServer;
} {
  let current: LoopbackServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const server = (): LoopbackServer => {
    if (!current) throw new Error('no server');
    return current;
  };
  return {
    serve: async (handler) => (current = await startLoopbackServer(handler)),
    get: (path, extra = {}) => ({ url: new URL(path, server().url), method: 'GET', headers: [], ...extra }),
    server,
  };
}
