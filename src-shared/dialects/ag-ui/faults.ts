import type { Faulted, FaultKind } from '../../testing/faults';

/*
 * Faults of AG-UI streams for the diagnostics test (src-shared/testing/faults.ts): each breaks
 * one rule at one event of a clean AG-UI stream, and the decoder must report that rule there.
 */

type Json = Record<string, unknown>;

const event = (data: string): string => `data: ${data}\n\n`;
const json = (value: Json): string => event(JSON.stringify(value));

function parse(data: string | undefined): Json {
  try {
    const value: unknown = JSON.parse(data ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}

/** The events whose type passes `test`. */
function typed(test: (type: string, e: Json) => boolean): (events: readonly string[]) => number[] {
  return (events) =>
    events.flatMap((data, i) => {
      const e = parse(data);
      return typeof e['type'] === 'string' && test(e['type'], e) ? [i] : [];
    });
}

const ofType =
  (...types: string[]) =>
  (type: string): boolean =>
    types.includes(type);

function replaced(events: readonly string[], site: number, ...replacement: string[]): string[] {
  return [...events.slice(0, site).map(event), ...replacement, ...events.slice(site + 1).map(event)];
}

function changed(events: readonly string[], site: number, change: (e: Json) => Json): Faulted {
  return { parts: replaced(events, site, json(change(parse(events[site])))), target: site };
}

function insertedAfter(events: readonly string[], site: number, inserted: string): Faulted {
  return {
    parts: [...events.slice(0, site + 1).map(event), inserted, ...events.slice(site + 1).map(event)],
    target: site + 1,
  };
}

/** The first event after `site` whose type is `type` and whose `key` is the site's. */
function nextOf(events: readonly string[], site: number, type: string, key: string): number {
  const id = parse(events[site])[key];
  return events.findIndex((data, i) => i > site && parse(data)['type'] === type && parse(data)[key] === id);
}

/** The last event before `site` whose type is `type` and whose `key` is the site's. */
function openerOf(events: readonly string[], site: number, type: string, key: string): number {
  const id = parse(events[site])[key];
  for (let i = site - 1; i >= 0; i--) if (parse(events[i])['type'] === type && parse(events[i])[key] === id) return i;
  return 0;
}

const AG_UI = ['ag-ui'] as const;

export const AG_UI_FAULTS: FaultKind[] = [
  {
    rule: 'ag-ui.run-error',
    name: 'RUN_ERROR instead of RUN_FINISHED',
    dialects: AG_UI,
    sites: typed(ofType('RUN_FINISHED')),
    apply: (events, site) => ({
      parts: replaced(events, site, json({ type: 'RUN_ERROR', message: 'The agent crashed.', code: 'crash' })),
      target: site,
    }),
  },
  {
    rule: 'ag-ui.event-outside-run',
    name: 'an event after the run finished',
    dialects: AG_UI,
    sites: typed(ofType('RUN_FINISHED')),
    apply: (events, site) => insertedAfter(events, site, json({ type: 'CUSTOM', name: 'late', value: 1 })),
  },
  {
    rule: 'ag-ui.state-delta-failed',
    name: 'a state delta whose test fails',
    dialects: AG_UI,
    sites: (events) =>
      typed(ofType('STATE_DELTA'))(events).filter((site) =>
        events.slice(0, site).some((data) => parse(data)['type'] === 'STATE_SNAPSHOT'),
      ),
    apply: (events, site) =>
      changed(events, site, (e) => ({ ...e, delta: [{ op: 'test', path: '/__missing__', value: 1 }] })),
  },
  {
    rule: 'ag-ui.delta-before-snapshot',
    name: 'a state delta before any snapshot',
    dialects: AG_UI,
    sites: (events) =>
      typed((type, e) => type === 'RUN_STARTED' && !('input' in e))(events).filter(
        (site) => !events.slice(0, site).some((data) => parse(data)['type'] === 'STATE_SNAPSHOT'),
      ),
    apply: (events, site) =>
      insertedAfter(events, site, json({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/draft', value: 1 }] })),
  },
  {
    rule: 'ag-ui.unbalanced',
    name: 'a step finished that never started',
    dialects: AG_UI,
    sites: typed(ofType('RUN_STARTED')),
    apply: (events, site) => insertedAfter(events, site, json({ type: 'STEP_FINISHED', stepName: 'never-started' })),
  },
  {
    rule: 'ag-ui.pending-call-unknown',
    name: 'a pending call no tool call of the run has',
    dialects: AG_UI,
    sites: typed(ofType('RUN_FINISHED')),
    apply: (events, site) =>
      changed(events, site, (e) => ({ ...e, outcome: { type: 'success', pendingToolCallIds: ['call-never-made'] } })),
  },
  {
    rule: 'provider.missing-terminal',
    name: 'RUN_FINISHED dropped',
    dialects: AG_UI,
    sites: typed(ofType('RUN_FINISHED')),
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end', alternative: site }),
  },
  {
    rule: 'provider.block-not-started',
    name: 'content for a message never started',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS')),
    apply: (events, site) => changed(events, site, (e) => ({ ...e, messageId: 'msg-fault', toolCallId: 'call-fault' })),
  },
  {
    rule: 'provider.block-started-twice',
    name: 'a message started again while open',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_START', 'TOOL_CALL_START')),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'provider.delta-after-stop',
    name: 'content after its message ended',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_END')),
    apply: (events, site) =>
      insertedAfter(
        events,
        site,
        json({ type: 'TEXT_MESSAGE_CONTENT', messageId: parse(events[site])['messageId'], delta: 'late' }),
      ),
  },
  {
    rule: 'provider.block-not-stopped',
    name: 'TEXT_MESSAGE_END dropped',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_END')),
    apply: (events, site) => ({
      parts: replaced(events, site),
      target: openerOf(events, site, 'TEXT_MESSAGE_START', 'messageId'),
    }),
  },
  // A stray quote breaks JSON wherever it lands; the arguments are checked when the call ends.
  {
    rule: 'provider.tool-args-invalid',
    name: 'tool arguments that do not parse',
    dialects: AG_UI,
    sites: typed(ofType('TOOL_CALL_ARGS')),
    apply: (events, site) => ({
      ...changed(events, site, (e) => ({ ...e, delta: `${String(e['delta'])}"}]` })),
      target: nextOf(events, site, 'TOOL_CALL_END', 'toolCallId'),
      alternative: site,
    }),
  },
  {
    rule: 'provider.next-message',
    name: 'a capture holding a second run after the first finished',
    dialects: AG_UI,
    sites: (events) => (events.length > 0 ? [0] : []),
    apply: (events) => ({ parts: [...events.map(event), ...events.map(event)], target: events.length }),
  },
  {
    rule: 'provider.unknown-event',
    name: 'an event type newer than the inspector',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_CONTENT')),
    apply: (events, site) => insertedAfter(events, site, json({ type: 'TELEPATHY_STARTED' })),
  },
  {
    rule: 'provider.invalid-event',
    name: 'event data that is not an object',
    dialects: AG_UI,
    sites: typed(ofType('TEXT_MESSAGE_CONTENT')),
    apply: (events, site) => insertedAfter(events, site, event('[1, 2]')),
  },
];
