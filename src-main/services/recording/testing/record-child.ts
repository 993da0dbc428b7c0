/**
 * A separate process for the crash test (recorder.kill.test.ts): records a live SSE stream
 * with the real recorder and reports every acknowledged flush on stdout, one JSON line
 * each, so the parent knows what must survive a SIGKILL.
 *
 * Usage: run-ts.mjs record-child.ts URL FILE [TEAR_AFTER_WRITES]
 * With TEAR_AFTER_WRITES = n, write n + 1 writes only about half of its data, says `{"torn":…}`
 * and never finishes: a kill then lands in the middle of a record, as a kill during a
 * large write does.
 */
import { createRecorder, openFileSink, type RecorderSink } from '../recorder';

const [url, file, tearArg] = process.argv.slice(2);
if (!url || !file) {
  process.stderr.write('usage: record-child.ts URL FILE [TEAR_AFTER_WRITES]\n');
  process.exit(2);
}
const tearAfter = tearArg ? Number(tearArg) : Infinity;
const say = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

async function tearingSink(path: string): Promise<RecorderSink> {
  const real = await openFileSink(path);
  let writes = 0;
  return {
    async write(data) {
      if (++writes > tearAfter) {
        // Cut inside a record: not at a line boundary, and not just before a record's LF.
        let cut = Math.max(2, Math.floor(data.length / 2));
        while (cut > 2 && (data[cut] === 0x0a || data[cut - 1] === 0x0a)) cut--;
        await real.write(data.subarray(0, cut));
        say({ torn: { written: cut, of: data.length } });
        await new Promise<never>(() => undefined);
      }
      await real.write(data);
    },
    close: () => real.close(),
  };
}

const recorder = await createRecorder(file, {
  flushIntervalMs: 20,
  openSink: tearingSink,
  onFlush: (ack) => say({ ack }),
});
const response = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer CANARY-child' },
  body: '{"user_prompt":"hi"}',
});
const leg = recorder.startLeg({
  method: 'POST',
  url,
  headers: [
    ['content-type', 'application/json'],
    ['authorization', 'Bearer CANARY-child'],
  ],
  body: '{"user_prompt":"hi"}',
});
recorder.response(
  leg,
  { status: response.status, statusText: response.statusText, headers: [...response.headers] },
  true,
);
if (!response.body) throw new Error('no body');
const reader = (response.body as ReadableStream<Uint8Array>).getReader();
for (let read = await reader.read(); !read.done; read = await reader.read())
  recorder.chunk(leg, read.value, Date.now());
recorder.endLeg(leg, { reason: 'done' });
await recorder.close();
say({ closed: true });
