/**
 * A child process that opens one EventSource per URL and prints what each dispatched, as
 * JSON on stdout: the reference side of the SSE conformance test. Run with
 * `node --experimental-eventsource --import tsx eventsource-client.ts IMPL` and a JSON list
 * of `{url, types}` on stdin; IMPL is `undici` (Node's global EventSource, which is undici's)
 * or `eventsource` (the npm package). An EventSource only reports events of the types it
 * listens to, so each URL comes with the types its stream may dispatch.
 *
 * A source is done at its first `error` event, which an EventSource fires when the response
 * ends (before it would reconnect), or after `GIVE_UP_MS`.
 */
import { EventSource as EventSourcePackage } from 'eventsource';

interface Job {
  url: string;
  types: string[];
}

interface Observed {
  events: { event: string; data: string; id: string }[];
  /** Why it stopped: the response ended, or it was given up on. */
  end: 'ended' | 'timeout';
}

const GIVE_UP_MS = 8000;

/** What both implementations have in common (the node tsconfig has no DOM types). */
interface MessageEventLike {
  type: string;
  data: string;
  lastEventId: string;
}
interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEventLike) => void): void;
  close(): void;
}

function open(impl: string, url: string): EventSourceLike {
  if (impl === 'eventsource') return new EventSourcePackage(url);
  const Native = (globalThis as { EventSource?: new (url: string) => EventSourceLike }).EventSource;
  if (!Native) throw new Error('no global EventSource: run node with --experimental-eventsource');
  return new Native(url);
}

function observe(impl: string, job: Job): Promise<Observed> {
  return new Promise((resolve) => {
    const events: Observed['events'] = [];
    const source = open(impl, job.url);
    const finish = (end: Observed['end']): void => {
      clearTimeout(timer);
      source.close();
      resolve({ events, end });
    };
    const timer = setTimeout(() => finish('timeout'), GIVE_UP_MS);
    for (const type of job.types) {
      source.addEventListener(type, (m) =>
        events.push({ event: m.type === 'message' ? '' : m.type, data: m.data, id: m.lastEventId }),
      );
    }
    source.addEventListener('error', () => finish('ended'));
  });
}

async function main(): Promise<void> {
  const impl = process.argv[2] ?? '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const jobs = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Job[];
  const results = await Promise.all(jobs.map((job) => observe(impl, job)));
  process.stdout.write(JSON.stringify(results));
}

await main();
