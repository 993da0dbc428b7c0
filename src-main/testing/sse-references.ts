/**
 * Other SSE readers, run on the same bytes as the framer: eventsource-parser in process,
 * undici's EventSource (Node's global one, behind `--experimental-eventsource` in Node 20)
 * and the `eventsource` package in a child process against a loopback server.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../../src-shared/testing/sse-conformance';

/**
 * The events eventsource-parser v3 dispatches for these chunks, decoded the way its
 * EventSourceParserStream does (a streaming TextDecoder, which drops one leading BOM). Its
 * `id` is only the id given in that event's block, so the last event ID is carried forward
 * here as an EventSource would. It has no end-of-stream call: a CR that ended the last chunk
 * stays pending (an LF might follow). With `flushFinalCr`, an LF is fed at the end unless the
 * stream already ends in LF: that completes a final CR (or an unterminated last line, which
 * never dispatches) and changes nothing else.
 */
export function eventsourceParserEvents(
  chunks: readonly Uint8Array[],
  options: { flushFinalCr?: boolean } = {},
): SseEvent[] {
  const events: SseEvent[] = [];
  let lastId = '';
  const parser = createParser({
    onEvent: (e) => {
      lastId = e.id ?? lastId;
      events.push({ event: e.event ?? '', data: e.data, id: lastId });
    },
  });
  const decoder = new TextDecoder();
  for (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== '') parser.feed(text);
  }
  const rest = decoder.decode();
  if (rest !== '') parser.feed(rest);
  const last = chunks.at(-1);
  if (options.flushFinalCr && last && last.length > 0 && last[last.length - 1] !== 0x0a) parser.feed('\n');
  return events;
}

export type EventSourceImpl = 'undici' | 'eventsource';

export interface EventSourceObservation {
  events: SseEvent[];
  end: 'ended' | 'timeout';
}

/**
 * Serve each stream over loopback HTTP and let an EventSource read it to the end of the
 * response. The last event ID is observed through each event's `lastEventId`: waiting for
 * the reconnection that would send it costs the default 3 s per stream.
 */
export async function readWithEventSource(
  impl: EventSourceImpl,
  streams: readonly { bytes: Uint8Array; types: string[] }[],
): Promise<EventSourceObservation[]> {
  const server = createServer((req, res) => {
    const stream = streams[Number(/^\/stream\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1)];
    if (!stream) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.end(stream.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await runClient(
      impl,
      streams.map((s, i) => ({ url: `http://127.0.0.1:${port}/stream/${i}`, types: s.types })),
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const CLIENT = fileURLToPath(new URL('./eventsource-client.ts', import.meta.url));

function runClient(impl: EventSourceImpl, jobs: { url: string; types: string[] }[]): Promise<EventSourceObservation[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--experimental-eventsource', '--no-warnings', '--import', 'tsx', CLIENT, impl],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        reject(new Error(`eventsource client (${impl}) exited ${code}: ${Buffer.concat(err).toString('utf8')}`));
      else resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as EventSourceObservation[]);
    });
    child.stdin.end(JSON.stringify(jobs));
  });
}

/** Every event type a stream may dispatch: `message` and each `event:` value in it. */
export function eventTypesIn(bytes: Uint8Array): string[] {
  const types = new Set(['message']);
  for (const line of new TextDecoder().decode(bytes).split(/\r\n|\r|\n/)) {
    const match = /^event:( ?)(.*)$/.exec(line);
    if (match?.[2]) types.add(match[2]);
  }
  return [...types];
}
