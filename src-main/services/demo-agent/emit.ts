import { createJsonFormatter } from './emit-json';
import { createRawFormatter } from './emit-raw';
import { createXmlFormatter } from './emit-xml';
import { pyDumps } from './python-json';
import type { Format, Step } from './script';

/** What the server writes for a step: SSE events (framed by the router), verbatim bytes, or a cut. */
export type WireOp =
  { op: 'event'; data: string } | { op: 'bytes'; text: string } | { op: 'cut'; mode: 'end' | 'drop' };

export interface Emitter {
  emit(step: Step): WireOp[];
}

const FORMATTERS = { json: createJsonFormatter, xml: createXmlFormatter, raw: createRawFormatter } as const;

/** The router's framing of one queue item: one `data:` line, never split (`agent_router.py`). */
export function sseEvent(data: string): string {
  return `data: ${data}\n\n`;
}

/**
 * Turns steps into wire operations for one response in one format: agent steps through
 * that format's formatter, router steps (`[DONE]`, error frame) as the router writes them.
 */
export function createEmitter(format: Format): Emitter {
  const formatter = FORMATTERS[format]();
  return {
    emit(step) {
      switch (step.kind) {
        case 'done':
          return [{ op: 'event', data: '[DONE]' }];
        case 'error_frame':
          // Plain json.dumps: ASCII-only, spaced separators, no envelope fields.
          return [
            { op: 'event', data: pyDumps({ error: step.error, message: step.message, traceback: step.traceback }) },
          ];
        case 'wire':
          return [{ op: 'bytes', text: step.render(format) }];
        case 'cut':
          return [{ op: 'cut', mode: step.mode }];
        default:
          return formatter(step).map((data) => ({ op: 'event', data }));
      }
    },
  };
}

/** A whole script as the bytes a server writes, up to the first cut (tests, recordings). */
export function renderScript(steps: readonly Step[], format: Format): string {
  const emitter = createEmitter(format);
  const out: string[] = [];
  for (const step of steps) {
    for (const op of emitter.emit(step)) {
      if (op.op === 'cut') return out.join('');
      out.push(op.op === 'event' ? sseEvent(op.data) : op.text);
    }
  }
  return out.join('');
}
