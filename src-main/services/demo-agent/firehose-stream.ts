import { jsonText } from '../../../src-shared/json/tree';
import { isJsonObject } from '../../../src-shared/json/values';
import { createEmitter, sseEvent } from './emit';
import { sleep } from './pacing';
import { firehoseRun, firehoseToolId } from './scenarios/firehose';
import type { ScenarioContext } from './scenarios/scenario';
import type { Step } from './script';
import type { SseResponse } from './sse-response';

/** How the firehose is paced: `seconds` 0 streams until the client disconnects. */
export interface FirehosePace {
  rate: number;
  seconds: number;
}

export const FIREHOSE_DEFAULTS: FirehosePace = { rate: 1_000, seconds: 10 };
export const MAX_RATE = 1_000_000;
export const MAX_SECONDS = 86_400;

export type ReadPace = { ok: true; pace: Partial<FirehosePace> } | { ok: false; message: string };

const MAX_SHOWN = 60;

/** A rejected value as the message shows it: JSON text (a query value is a string), cut short. */
function shown(value: unknown): string {
  const text = jsonText(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/** `rate` and `duration` from the query (which wins) or the body; absent fields are left out. */
export function readFirehosePace(body: unknown, query: URLSearchParams): ReadPace {
  const fromBody = isJsonObject(body) ? body : {};
  const field = (key: string): { value: number | undefined; given: unknown } => {
    const queried = query.get(key);
    if (queried !== null) return { value: queried.trim() === '' ? NaN : Number(queried), given: queried };
    const given = fromBody[key] ?? undefined;
    return { value: typeof given === 'number' || given === undefined ? given : NaN, given };
  };
  const pace: Partial<FirehosePace> = {};
  const rate = field('rate');
  if (rate.value !== undefined) {
    if (!Number.isInteger(rate.value) || rate.value < 1 || rate.value > MAX_RATE) {
      return {
        ok: false,
        message: `rate must be a whole number of envelopes per second from 1 to ${MAX_RATE}, not ${shown(rate.given)}`,
      };
    }
    pace.rate = rate.value;
  }
  const duration = field('duration');
  if (duration.value !== undefined) {
    if (!Number.isFinite(duration.value) || duration.value < 0 || duration.value > MAX_SECONDS) {
      return {
        ok: false,
        message: `duration must be a number of seconds from 0 (until the client disconnects) to ${MAX_SECONDS}, not ${shown(duration.given)}`,
      };
    }
    pace.seconds = duration.value;
  }
  return { ok: true, pace };
}

/** Events written in one go at most, so a writer that fell behind catches up in bounded pieces. */
const MAX_EVENTS_PER_WRITE = 4_096;
/** The shortest wait between writes: at high rates every write carries what fell due meanwhile. */
const MIN_WAIT_MS = 2;

interface Template {
  events: string[];
  /** Events that name the cycle's tool call: the cycle's number replaces the marker. */
  numbered: boolean[];
}

const MARKER = '#CYCLE#';

/** The run's parts as SSE events, rendered once with the json formatter. */
function renderRun(ctx: ScenarioContext): { head: string[]; templates: Template[]; tail: string[] } {
  const run = firehoseRun(ctx, (agent) => firehoseToolId(agent, MARKER));
  const emitter = createEmitter('json');
  const render = (steps: readonly Step[]): string[] =>
    steps.flatMap((step) => emitter.emit(step).flatMap((op) => (op.op === 'event' ? [sseEvent(op.data)] : [])));
  const head = render(run.head);
  const templates = run.cycles.map((steps) => {
    const events = render(steps);
    return { events, numbered: events.map((e) => e.includes(MARKER)) };
  });
  return { head, templates, tail: [...render(run.tail), sseEvent('[DONE]')] };
}

/**
 * Streams the firehose: the head, then cycle after cycle (the templates in turn, each tool
 * id numbered by its cycle), every event written once it is due at `rate` events per second
 * from the start; after `rate × seconds` events the current cycle is finished (so no block is
 * left open), then the closing answer, meta_final and `[DONE]`. Stops as soon as the client
 * disconnects; honours back-pressure (a slow client gets the events late, in bursts).
 */
export async function streamFirehose(out: SseResponse, ctx: ScenarioContext, pace: FirehosePace): Promise<void> {
  const { head, templates, tail } = renderRun(ctx);
  const total = pace.seconds > 0 ? Math.max(head.length, Math.round(pace.rate * pace.seconds)) : Infinity;
  let cycle = 0;
  let inCycle = 0;
  let sent = 0;
  const next = (): string => {
    if (sent < head.length) return head[sent] as string;
    const template = templates[cycle % templates.length] as Template;
    const event = template.events[inCycle] as string;
    const text = template.numbered[inCycle] ? event.replaceAll(MARKER, String(cycle)) : event;
    if (++inCycle === template.events.length) {
      inCycle = 0;
      cycle++;
    }
    return text;
  };
  const start = performance.now();
  // Past the total, the cycle under way is finished so that every block closes.
  while (!out.isClosed && (sent < total || inCycle > 0)) {
    const elapsed = performance.now() - start;
    const due = Math.min(sent + MAX_EVENTS_PER_WRITE, Math.floor((elapsed * pace.rate) / 1000) + 1);
    let chunk = '';
    for (; sent < due && (sent < total || inCycle > 0); sent++) chunk += next();
    if (chunk) await out.write(chunk);
    else await Promise.race([sleep(Math.max(MIN_WAIT_MS, (sent * 1000) / pace.rate - elapsed)), out.closed]);
  }
  if (out.isClosed) return;
  await out.write(tail.join(''));
  out.end();
}
