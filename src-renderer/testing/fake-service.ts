import { createEmitter, type Emitter } from '../../src-shared/contract/emitter';
import { INSPECTOR_NAMES, type InspectorEvent, type InspectorService } from '../../src-shared/contract';
import type { RowColumns, SessionBatch, SessionSummary, TimelineRow } from '../../src-shared/contract';
import { RowColumnsBuilder } from '../../src-shared/contract/row-columns';

/**
 * An in-memory InspectorService for model tests: commands the test does not provide reject
 * with "not faked: NAME" (so an unexpected call fails loudly), events are emitters the test
 * fires, and every call is logged.
 */
/** The payload type of one of the contract's events. */
export type EventPayload<K extends InspectorEvent> = InspectorService[K] extends (
  listener: (payload: infer P) => void,
) => unknown
  ? P
  : never;

export interface FakeService {
  readonly service: InspectorService;
  readonly calls: { method: string; arg: unknown }[];
  fire<K extends InspectorEvent>(event: K, payload: EventPayload<K>): void;
  listeners(event: InspectorEvent): number;
}

export function createFakeService(
  commands: Partial<Record<keyof InspectorService, (arg: never) => Promise<unknown>>> = {},
): FakeService {
  const calls: { method: string; arg: unknown }[] = [];
  const emitters = new Map<string, Emitter<unknown>>();
  const service: Record<string, unknown> = {};
  for (const name of INSPECTOR_NAMES.commands) {
    service[name] = (arg?: unknown) => {
      calls.push({ method: name, arg });
      const handler = commands[name] as ((arg: unknown) => Promise<unknown>) | undefined;
      return handler ? handler(arg) : Promise.reject(new Error(`not faked: ${name}`));
    };
  }
  for (const name of INSPECTOR_NAMES.events) {
    const emitter = createEmitter<unknown>();
    emitters.set(name, emitter);
    service[name] = emitter.event;
  }
  return {
    service: service as unknown as InspectorService,
    calls,
    fire(event, payload) {
      emitters.get(event)?.fire(payload);
    },
    listeners: (event) => emitters.get(event)?.listenerCount ?? 0,
  };
}

export function summary(id: string, change: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: `Session ${id}`,
    source: { kind: 'live', method: 'POST', url: 'http://127.0.0.1:1/agent/run' },
    state: 'streaming',
    createdAt: 1000,
    legs: 1,
    envelopes: 0,
    bytes: 0,
    format: 'json',
    diagnostics: { error: 0, warning: 0, info: 0 },
    awaitingTools: false,
    ...change,
  };
}

/** A timeline row with plausible defaults. */
export function row(seq: number, change: Partial<TimelineRow> = {}): TimelineRow {
  return {
    seq,
    leg: 0,
    frame: seq,
    receivedAt: 1000 + seq * 10,
    agent: 'agent-a',
    type: 'text',
    final: false,
    preview: `delta ${seq}`,
    deltaLength: `delta ${seq}`.length,
    bytes: 60,
    diagnostics: 0,
    ...change,
  };
}

export function rows(
  from: number,
  to: number,
  change: (seq: number) => Partial<TimelineRow> = () => ({}),
): TimelineRow[] {
  const list: TimelineRow[] = [];
  for (let seq = from; seq < to; seq++) list.push(row(seq, change(seq)));
  return list;
}

/** The compact columns of consecutive rows, as main builds them for a batch. */
export function columnsOf(list: readonly TimelineRow[]): RowColumns {
  const builder = new RowColumnsBuilder();
  for (const r of list) builder.add(r);
  return builder.build();
}

/** A batch of new rows (all also sent in full), changed rows and the session's total. */
export function rowsBatch(
  list: readonly TimelineRow[],
  changed: readonly TimelineRow[] = [],
  total = (list.at(-1)?.seq ?? -1) + 1,
  sessionId = 's1',
): SessionBatch {
  return {
    sessionId,
    total,
    start: list[0]?.seq ?? total,
    columns: columnsOf(list),
    rows: [...list],
    changed: [...changed],
    agents: [],
    blockRevision: 0,
    diagnosticCount: 0,
  };
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
