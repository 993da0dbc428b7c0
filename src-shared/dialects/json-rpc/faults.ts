import type { FaultKind, Faulted } from '../../testing/faults';

/**
 * The json-rpc dialect's faults for the fault suite (src-shared/testing/faults.ts): each
 * breaks one rule of rules.ts (or provider.next-message) at one event of a clean MCP or A2A
 * stream (the demo scenarios of resources/fixtures/providers/json-rpc), and the decoder must
 * report that rule at that event.
 */

type Json = Record<string, unknown>;

const event = (data: string): string => `data: ${data}\n\n`;

function parse(data: string | undefined): Json | undefined {
  try {
    const value: unknown = JSON.parse(data ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const resultOf = (e: Json | undefined): Json | undefined => {
  const result = e?.['result'];
  return typeof result === 'object' && result !== null ? (result as Json) : undefined;
};
const isResponse = (e: Json | undefined): boolean => e !== undefined && ('result' in e || 'error' in e);
const a2aKind = (e: Json | undefined): unknown => resultOf(e)?.['kind'];
const isA2a = (events: readonly string[]): boolean => events.some((d) => a2aKind(parse(d)) !== undefined);
const isProgress = (e: Json | undefined): boolean => e?.['method'] === 'notifications/progress';

function sites(events: readonly string[], test: (e: Json | undefined, i: number) => boolean): number[] {
  const out: number[] = [];
  events.forEach((data, i) => {
    if (test(parse(data), i)) out.push(i);
  });
  return out;
}

/** The event that ends the stream: the MCP response, or the A2A status update with final: true. */
function terminal(events: readonly string[]): number {
  const a2a = isA2a(events);
  return events.findIndex((d) => {
    const e = parse(d);
    return a2a ? resultOf(e)?.['final'] === true : isResponse(e);
  });
}

const changed = (events: readonly string[], site: number, change: (e: Json) => Json): Faulted => ({
  parts: events.map((d, i) => event(i === site ? JSON.stringify(change(parse(d) ?? {})) : d)),
  target: site,
});

function inserted(events: readonly string[], after: number, data: Json): Faulted {
  const parts = events.map(event);
  parts.splice(after + 1, 0, event(JSON.stringify(data)));
  return { parts, target: after + 1 };
}

const dropFrom = (events: readonly string[], site: number): Faulted => ({
  parts: events.slice(0, site).map(event),
  target: 'end',
});

/** Whether a JSON-RPC message comes before `site` (the stream is known to be JSON-RPC by then). */
const messageBefore = (events: readonly string[], site: number): boolean =>
  events.slice(0, site).some((d) => parse(d)?.['jsonrpc'] === '2.0');

const RULE_DIALECTS = ['json-rpc'] as const;

/** A fault of an A2A stream's final status update: its state set to `state`. */
function finalInState(rule: FaultKind['rule'], says: string, state: string): FaultKind {
  return {
    rule,
    name: `the final status update ${says}`,
    dialects: RULE_DIALECTS,
    sites: (events) => (isA2a(events) ? [terminal(events)].filter((i) => i >= 0) : []),
    apply: (events, site) => changed(events, site, (e) => ({ ...e, result: { ...resultOf(e), status: { state } } })),
  };
}

export const JSON_RPC_FAULTS: FaultKind[] = [
  {
    rule: 'json-rpc.invalid-message',
    name: 'a message that says jsonrpc 1.0',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e, i) => e?.['jsonrpc'] === '2.0' && messageBefore(events, i)),
    apply: (events, site) => changed(events, site, (e) => ({ ...e, jsonrpc: '1.0' })),
  },
  {
    rule: 'json-rpc.unknown-id',
    name: 'an A2A event answering another id',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e, i) => a2aKind(e) !== undefined && messageBefore(events, i)),
    apply: (events, site) => changed(events, site, (e) => ({ ...e, id: 999 })),
  },
  {
    rule: 'json-rpc.error',
    name: 'a JSON-RPC error instead of the MCP response',
    dialects: RULE_DIALECTS,
    sites: (events) => (isA2a(events) ? [] : [terminal(events)].filter((i) => i >= 0)),
    apply: (events, site) =>
      changed(events, site, (e) => ({
        jsonrpc: '2.0',
        id: e['id'],
        error: { code: -32603, message: 'Internal error' },
      })),
  },
  {
    rule: 'json-rpc.tool-error',
    name: 'a tool result with isError: true',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e) => Array.isArray(resultOf(e)?.['content']) && a2aKind(e) === undefined),
    apply: (events, site) => changed(events, site, (e) => ({ ...e, result: { ...resultOf(e), isError: true } })),
  },
  finalInState('json-rpc.task-failed', 'says failed', 'failed'),
  finalInState('json-rpc.unknown-state', 'is in a state A2A does not have', 'tool_calls'),
  {
    rule: 'json-rpc.artifact-out-of-order',
    name: 'an append to an artifact never started',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e) => a2aKind(e) === 'artifact-update' && resultOf(e)?.['append'] === true),
    apply: (events, site) =>
      changed(events, site, (e) => {
        const result = resultOf(e) ?? {};
        return {
          ...e,
          result: { ...result, artifact: { ...(result['artifact'] as Json), artifactId: `ghost-${site}` } },
        };
      }),
  },
  {
    rule: 'json-rpc.artifact-out-of-order',
    name: 'an artifact chunk after its lastChunk',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e) => a2aKind(e) === 'artifact-update' && resultOf(e)?.['lastChunk'] === true),
    apply: (events, site) => {
      const e = parse(events[site]) ?? {};
      return inserted(events, site, { ...e, result: { ...resultOf(e), append: true, lastChunk: false } });
    },
  },
  {
    rule: 'json-rpc.after-end',
    name: 'a message after the end of the stream',
    dialects: RULE_DIALECTS,
    sites: (events) => [terminal(events)].filter((i) => i >= 0),
    apply: (events, site) => {
      const e = parse(events[site]) ?? {};
      return isA2a(events)
        ? inserted(events, site, { ...e, result: { ...resultOf(e), status: { state: 'working' }, final: false } })
        : inserted(events, site, {
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: 'late' },
          });
    },
  },
  {
    rule: 'json-rpc.truncated',
    name: 'the stream cut before its response or final status',
    dialects: RULE_DIALECTS,
    sites: (events) =>
      [terminal(events)].filter(
        (i) =>
          i >= 0 && messageBefore(events, i) && (isA2a(events) || events.slice(0, i).some((d) => isProgress(parse(d)))),
      ),
    apply: dropFrom,
  },
  {
    rule: 'json-rpc.resumable-end',
    name: 'a resumable MCP stream cut before its response',
    dialects: RULE_DIALECTS,
    sites: (events) => (isA2a(events) ? [] : [terminal(events)].filter((i) => i > 0 && messageBefore(events, i))),
    apply: (events, site) => ({
      parts: events.slice(0, site).map((d, i) => `id: e-${i}\n${event(d)}`),
      target: 'end',
    }),
  },
  {
    rule: 'json-rpc.no-response',
    name: 'only a log line of the server (a GET stream)',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, (e) => e?.['method'] === 'notifications/message'),
    apply: (events, site) => ({ parts: [event(events[site] ?? '')], target: 'end' }),
  },
  {
    rule: 'json-rpc.progress-backwards',
    name: 'a progress notification repeated',
    dialects: RULE_DIALECTS,
    sites: (events) => sites(events, isProgress),
    apply: (events, site) => inserted(events, site, parse(events[site]) ?? {}),
  },
  {
    rule: 'provider.next-message',
    name: 'a capture holding a second exchange after the first one ended',
    dialects: RULE_DIALECTS,
    sites: (events) => (terminal(events) >= 0 ? [0] : []),
    apply: (events) => {
      const next = events.map((d) => {
        const e = parse(d);
        return isResponse(e) ? JSON.stringify({ ...e, id: 'next' }) : d;
      });
      const firstResponse = next.findIndex((d) => isResponse(parse(d)));
      return { parts: [...events, ...next].map(event), target: events.length + firstResponse };
    },
  },
];
