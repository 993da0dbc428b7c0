import { open, stat } from 'node:fs/promises';
import { createRecorder } from '../src-main/services/recording/recorder';
import type { Format } from '../src-main/services/demo-agent/script';
import { fixtureStream } from './streams';

/** Recordings the renderer benches open: upstream fixtures of one format repeated, in 64 KB network chunks. */

const CHUNK = 64 * 1024;

/** A recording stores chunks in base64: 3 stream bytes per 4 file bytes. */
export async function writeFixtureRecording(path: string, format: Format, fileBytes: number): Promise<number> {
  const stream = fixtureStream(format, Math.round((fileBytes * 3) / 4));
  const recorder = await createRecorder(path, { tool: 'renderer bench' });
  const leg = recorder.startLeg({
    method: 'POST',
    url: 'http://127.0.0.1/agent/run',
    headers: [['content-type', 'application/json']],
    body: '{"user_prompt":"bench"}',
  });
  recorder.response(leg, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
  const start = Date.now();
  for (let offset = 0, i = 0; offset < stream.length; offset += CHUNK, i++) {
    recorder.chunk(leg, stream.subarray(offset, offset + CHUNK), start + i);
    if (i % 64 === 63) await recorder.flush();
  }
  recorder.endLeg(leg, { reason: 'done' });
  await recorder.close();
  // On disk before it is opened: a user opens a recording made earlier, not one whose 100 MB
  // the kernel is still writing back (its I/O wait took half the CPU time of some opens).
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  return (await stat(path)).size;
}
