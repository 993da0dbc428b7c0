import { DIALECT_REGISTRY, type DialectRegistry } from '../dialects/registry';
import type { LineFraming } from '../dialects/types';
import { createLineFramer } from '../lines/line-framer';
import { createSseFramer } from '../sse/framer';
import type { FramerCallbacks, FramerOptions, FramerSummary, SseFramer } from '../sse/types';
import { createUtf8Decoder } from '../text/utf8';

/**
 * How a leg's bytes become frames: SSE (every dialect), or one event per line for a dialect
 * that declares a line-framed wire (DialectModule.lineFramed, the AI SDK's v4 data stream).
 * Lines need positive evidence: a response header the dialect names, or, without headers
 * (a file), the leg's first bytes as the dialect says they look. Anything else is SSE.
 */
export type Framing = 'sse' | 'lines';

type HeaderList = readonly (readonly [string, string])[];

export interface LegFramer {
  /** The response head, which arrives before any byte: its headers are evidence for the framing. */
  respond(headers: HeaderList): void;
  push(chunk: Uint8Array, receivedAt: number): void;
  end(): FramerSummary;
  /** How the leg is framed (SSE until its headers or first bytes said otherwise). */
  framing(): Framing;
}

const headerValue = (headers: HeaderList, name: string): string | undefined =>
  headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

/** The line-framed wire these response headers announce, if any. */
export function announcedLineFraming(
  headers: HeaderList,
  registry: DialectRegistry = DIALECT_REGISTRY,
): LineFraming | undefined {
  for (const module of registry.modules) {
    const framing = module.lineFramed;
    if (framing?.headers.some(([name, value]) => headerValue(headers, name)?.trim().toLowerCase() === value))
      return framing;
  }
  return undefined;
}

/** The line-framed wire a leg starting with `prefix` (its first bytes, decoded, BOM skipped) is in, if any. */
export function lineFramingOf(prefix: string, registry: DialectRegistry = DIALECT_REGISTRY): LineFraming | undefined {
  return registry.modules.find((m) => m.lineFramed?.startsLike(prefix.slice(0, m.lineFramed.prefixBytes)))?.lineFramed;
}

const isEventStream = (headers: HeaderList): boolean =>
  /^\s*text\/event-stream\s*(;|$)/i.test(headerValue(headers, 'content-type') ?? '');

const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * The leg's framer, chosen on evidence. Without headers, the first chunks are held until the
 * leg shows enough bytes to tell (a couple: `prefixBytes` of the line-framed dialects), then
 * replayed into the chosen framer, so chunk numbers and receive times are the received ones.
 * With no line-framed dialect registered, the leg is SSE from its first byte.
 */
export function createLegFramer(
  callbacks: FramerCallbacks,
  sseOptions: FramerOptions,
  registry: DialectRegistry = DIALECT_REGISTRY,
): LegFramer {
  const needed = Math.max(0, ...registry.modules.map((m) => m.lineFramed?.prefixBytes ?? 0));
  let framer: SseFramer | undefined;
  let framing: Framing = 'sse';
  const held: { chunk: Uint8Array; receivedAt: number }[] = [];
  let heldBytes = 0;

  const choose = (lines: LineFraming | undefined): SseFramer => {
    framing = lines ? 'lines' : 'sse';
    framer = lines
      ? createLineFramer(callbacks, { isComplete: (line) => lines.isComplete(line) })
      : createSseFramer(callbacks, sseOptions);
    for (const { chunk, receivedAt } of held.splice(0)) framer.push(chunk, receivedAt);
    return framer;
  };

  /** The held bytes' start, BOM skipped, decoded: what `startsLike` reads. */
  const prefix = (): string => {
    const bytes = new Uint8Array(heldBytes);
    let at = 0;
    for (const { chunk } of held) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    const skip = BOM.every((b, i) => bytes[i] === b) ? BOM.length : 0;
    return createUtf8Decoder().decode(bytes.subarray(skip, skip + needed));
  };

  if (needed === 0) choose(undefined);
  return {
    respond(headers) {
      if (framer) return;
      const lines = announcedLineFraming(headers, registry);
      if (lines || isEventStream(headers)) choose(lines);
    },
    push(chunk, receivedAt) {
      if (framer) return framer.push(chunk, receivedAt);
      if (chunk.length === 0) return;
      held.push({ chunk: chunk.slice(), receivedAt });
      heldBytes += chunk.length;
      if (heldBytes >= needed + BOM.length) choose(lineFramingOf(prefix(), registry));
    },
    end() {
      return (framer ?? choose(heldBytes > 0 ? lineFramingOf(prefix(), registry) : undefined)).end();
    },
    framing: () => framing,
  };
}
