import { stat } from 'node:fs/promises';
import { createRecorder } from './recorder';
import { readFixture } from '../../testing/fixtures';

/**
 * A recording of about `fileBytes` for the upload tests, e2e and bench: the events of an
 * upstream JSON fixture (one agent's meta_init, thinking, text and tool calls) over and over in
 * 64 KB network chunks, closed by `[DONE]`. Written through the recorder as the app writes
 * one, so only a chunk at a time is in memory. Resolves with the file's size.
 */
export async function writeBigRecording(path: string, fileBytes: number): Promise<number> {
  const text = new TextDecoder().decode(readFixture('json_stream.json.sse'));
  const events = text.replace(/data: \[DONE\]\s*$/, '');
  // Whole repetitions of the events per network chunk, about CHUNK bytes each.
  const chunk = new TextEncoder().encode(events.repeat(Math.max(1, Math.round(CHUNK / events.length))));
  const recorder = await createRecorder(path, { tool: 'big-recording' });
  const leg = recorder.startLeg({
    method: 'POST',
    url: 'http://127.0.0.1/agent/run',
    headers: [['content-type', 'application/json']],
    body: '{"user_prompt":"big"}',
  });
  recorder.response(leg, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
  // A recording stores chunks in base64: 3 stream bytes per 4 file bytes.
  const streamBytes = Math.round((fileBytes * 3) / 4);
  const start = 1_764_000_000_000;
  let i = 0;
  for (let written = 0; written < streamBytes; written += chunk.length, i++) {
    recorder.chunk(leg, chunk, start + i);
    if (i % 64 === 63) await recorder.flush();
  }
  recorder.chunk(leg, new TextEncoder().encode('data: [DONE]\n\n'), start + i);
  recorder.endLeg(leg, { reason: 'done' });
  await recorder.close();
  return (await stat(path)).size;
}

const CHUNK = 64 * 1024;
