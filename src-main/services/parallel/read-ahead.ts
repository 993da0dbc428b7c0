import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import type { PreparedCursor } from '../../../src-shared/pipeline/prepared';
import type { ChunkInput } from '../../../src-shared/pipeline/session-decoder';
import type { SpanPool } from './span-pool';

/** Bytes of one span: large enough that a thread's message and start cost little against reading it. */
export const SPAN_BYTES = 4 * 1024 * 1024;

interface Span {
  chunks: ChunkInput[];
  prepared: Promise<void>;
}

/**
 * One leg's chunks, as they are to be decoded in order, with the spans ahead of them read on
 * the pool's threads: the chunks are grouped into spans of about `spanBytes`, each span is
 * sent to a thread as it fills, and its chunks are handed on once its envelopes are in
 * `cursor`; the first span's chunks are handed on as they come, so the first rows are as
 * quick as without threads. Up to one span per thread, plus the one being decoded, is held in memory. A span
 * a thread fails to read is simply not in the cursor: its events are read in order.
 */
export async function* readAhead(
  chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>,
  pool: SpanPool,
  cursor: PreparedCursor,
  options: { budget: number; spanBytes?: number },
): AsyncGenerator<ChunkInput> {
  const spanBytes = options.spanBytes ?? SPAN_BYTES;
  cursor.reset();
  const inFlight: Span[] = [];
  let held: ChunkInput[] = [];
  let heldBytes = 0;
  let offset = 0;
  /** Bytes of the first span, decoded without waiting for a thread. */
  let direct = 0;
  const send = (): void => {
    // A copy (concatBytes always makes one): the thread takes its buffer, which no chunk uses.
    const bytes = concatBytes(held.map((chunk) => chunk.bytes));
    const prepared = pool.read(bytes, offset, options.budget).then(
      (span) => cursor.add(span),
      () => undefined,
    );
    inFlight.push({ chunks: held, prepared });
    offset += heldBytes;
    held = [];
    heldBytes = 0;
  };
  async function* oldest(): AsyncGenerator<ChunkInput> {
    const span = inFlight.shift() as Span;
    await span.prepared;
    yield* span.chunks;
  }
  for await (const chunk of chunks) {
    // The first span goes straight to the ordered pass: the first rows never wait for a thread.
    if (direct < spanBytes) {
      direct += chunk.bytes.byteLength;
      offset = direct;
      yield chunk;
      continue;
    }
    held.push(chunk);
    heldBytes += chunk.bytes.byteLength;
    if (heldBytes < spanBytes) continue;
    send();
    if (inFlight.length > pool.size) yield* oldest();
  }
  if (held.length > 0) send();
  while (inFlight.length > 0) yield* oldest();
}
