import type { EnvelopeDetail } from '../../src-shared/contract';
import { displayJson } from './json-display';
import { DIALECT_REGISTRY } from '../../src-shared/dialects/registry';

/**
 * The envelope as the detail pane shows it: the decoded envelope as JSON (the four base
 * fields first, then the extras in wire order), and its delta parsed when it is JSON.
 */
export function envelopeJson(envelope: EnvelopeDetail): string {
  const value: Record<string, unknown> = {
    type: envelope.type,
    agent: envelope.agent,
    final: envelope.final,
    delta: envelope.delta,
    ...envelope.extras,
  };
  if (envelope.control) value['(control)'] = envelope.control;
  return displayJson(value) ?? '';
}

/** The delta pretty-printed when it is a JSON object or array (tool arguments, meta payloads); else null. */
export function parsedDelta(delta: string): string | null {
  const trimmed = delta.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return null;
  try {
    return displayJson(JSON.parse(delta)) ?? null;
  } catch {
    return null;
  }
}

/** The editor language for the frame's data as it came over the wire. */
export function wireLanguage(dialect: EnvelopeDetail['dialect'], data: string): 'json' | 'xml' | 'plaintext' {
  const syntax = DIALECT_REGISTRY.get(dialect)?.syntax;
  if (syntax === 'xml' || data.trimStart().startsWith('<')) return 'xml';
  if (syntax === 'json' || syntax === 'json+xml') {
    const trimmed = data.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'json';
  }
  return 'plaintext';
}

/** Pretty-prints one frame's data when it is a JSON document, else returns it as it is. */
export function prettyWireData(data: string): string {
  const trimmed = data.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return data;
  try {
    return displayJson(JSON.parse(data)) ?? data;
  } catch {
    return data;
  }
}

export interface ByteSpan {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  /** Which highlight covers the span (the diagnostic's bytes win over the envelope's). */
  readonly mark: 'none' | 'envelope' | 'finding';
}

/**
 * Cuts [start, end) into spans by the highlighted ranges, so the text view can render each
 * span with its mark. Ranges outside the window are clipped.
 */
export function byteSpans(
  start: number,
  end: number,
  envelope: { start: number; end: number } | null,
  finding: { start: number; end: number } | null,
): ByteSpan[] {
  const cuts = new Set([start, end]);
  for (const range of [envelope, finding]) {
    if (!range) continue;
    if (range.start > start && range.start < end) cuts.add(range.start);
    if (range.end > start && range.end < end) cuts.add(range.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const spans: ByteSpan[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const s = points[i]!;
    const e = points[i + 1]!;
    const inside = (r: { start: number; end: number } | null): boolean => r !== null && s >= r.start && e <= r.end;
    spans.push({ start: s, end: e, mark: inside(finding) ? 'finding' : inside(envelope) ? 'envelope' : 'none' });
  }
  return spans;
}
