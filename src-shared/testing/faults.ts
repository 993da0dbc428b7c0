/**
 * Faults derived from the rules of docs/diagnostics.md and docs/protocols/upstream-protocol.md,
 * applied to clean upstream streams: each fault breaks one rule at one event, and the
 * decoder must report that rule at that event. A fault kind lists the events of a stream it
 * can break (its sites); the generator applies it at a few seeded sites of every clean stream
 * of its dialect. The diagnostics test counts faults generated, flagged and missed.
 */
import type { RuleId } from '../diagnostics/rules';
import { JSON_RPC_FAULTS } from '../dialects/json-rpc/faults';
import { AG_UI_FAULTS } from '../dialects/ag-ui/faults';
import { AI_SDK_FAULTS } from '../dialects/ai-sdk-ui/faults';
import { GEMINI_FAULTS } from '../dialects/gemini/faults';
import { OPENAI_CHAT_FAULTS } from '../dialects/openai-chat/faults';
import type { DialectId } from '../dialects/registry';
import { KIND, type EnvelopeKind } from '../envelope/vocabulary';
import { seededRandom } from '../sse/rechunk';
import { bytesOf } from './sse-conformance';

/** A clean stream as its events' data, one `data:` line each. */
export interface CleanStream {
  name: string;
  dialect: DialectId;
  events: string[];
  /** Its events name their type in an `event:` field (the provider APIs). */
  eventFields?: boolean;
  /** Its events are lines, not SSE events (a line-framed wire: the AI SDK's v4 data stream). */
  lines?: boolean;
}

/** A faulted stream: the SSE text of each event, and the event the finding must point at. */
export interface Faulted {
  parts: (string | Uint8Array)[];
  /** Index into `parts`, or `end` for a finding about how the stream ends. */
  target: number | 'end';
  /** Another event the finding may point at instead (where a decoder can first tell). */
  alternative?: number | 'end';
}

export interface FaultKind {
  rule: RuleId;
  name: string;
  dialects: readonly DialectId[];
  /** Events of the stream this fault can break. */
  sites(events: readonly string[]): number[];
  apply(events: readonly string[], site: number): Faulted;
}

export interface Fault {
  kind: FaultKind;
  stream: string;
  site: number;
  faulted: Faulted;
}

function event(data: string): string {
  return `data: ${data}\n\n`;
}

/** The stream with event `site` replaced by `replacement` (SSE text of zero or more events). */
function replaced(
  events: readonly string[],
  site: number,
  ...replacement: (string | Uint8Array)[]
): (string | Uint8Array)[] {
  return [...events.slice(0, site).map(event), ...replacement, ...events.slice(site + 1).map(event)];
}

function at(events: readonly string[], site: number, ...replacement: (string | Uint8Array)[]): Faulted {
  return { parts: replaced(events, site, ...replacement), target: site };
}

/** Event `site` with `inserted` (SSE text) before it; the finding points at the insertion. */
function insertedBefore(events: readonly string[], site: number, inserted: string): Faulted {
  return { parts: [...events.slice(0, site).map(event), inserted, ...events.slice(site).map(event)], target: site };
}

/** Event `site` with `inserted` (SSE text) after it; the finding points at the insertion. */
function insertedAfter(events: readonly string[], site: number, inserted: string): Faulted {
  return insertedBefore(events, site + 1, inserted);
}

function indexes(events: readonly string[], test: (data: string, i: number) => boolean): number[] {
  const out: number[] = [];
  events.forEach((data, i) => {
    if (test(data, i)) out.push(i);
  });
  return out;
}

type Json = Record<string, unknown>;

function parse(data: string): Json | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function envelopesOf(
  type: EnvelopeKind,
  test: (e: Json) => boolean = () => true,
): (events: readonly string[]) => number[] {
  return (events) =>
    indexes(events, (data) => {
      const e = parse(data);
      return e?.['type'] === type && 'agent' in e && test(e);
    });
}

function withFields(events: readonly string[], site: number, change: (e: Json) => Json): Faulted {
  return at(events, site, event(JSON.stringify(change(parse(events[site] ?? '') ?? {}))));
}

const isDone = (data: string): boolean => data === '[DONE]';
const doneSite = (events: readonly string[]): number[] => indexes(events, isDone);
/** Content events: not [DONE], long enough to split. */
const payloadSites = (events: readonly string[]): number[] =>
  indexes(events, (data) => !isDone(data) && data.length > 12);

/**
 * A split point inside `data` after which the rest reads as no SSE line of its own: not a
 * comment, not a known field, not `name: value` (after a blank line that is an unknown field,
 * see docs/reliability.md, "What cannot be told apart").
 */
function splitPoint(data: string): number {
  for (let i = Math.floor(data.length / 2); i < data.length - 1; i++) {
    const rest = data.slice(i);
    if (!/^(:|data$|\s*$|[A-Za-z0-9_-]{1,64}:)/.test(rest)) return i;
  }
  return Math.floor(data.length / 2);
}

/** The last open tag of a streamed block before `site`. */
function openTagBefore(events: readonly string[], site: number): number {
  for (let i = site - 1; i >= 0; i--) if (/^<content-block-(text|thinking)>$/.test(events[i] ?? '')) return i;
  return 0;
}

const AGENT = '77777777-7777-4777-8777-777777777777';

/** A payload cut in two by `separator` (SSE text), at a point where the rest reads as no line of its own. */
function splitPayload(rule: RuleId, name: string, separator: string): FaultKind {
  return {
    rule,
    name,
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => {
      const data = events[site] ?? '';
      const cut = splitPoint(data);
      return at(events, site, `data: ${data.slice(0, cut)}${separator}${data.slice(cut)}\n\n`);
    },
  };
}

const SSE: FaultKind[] = [
  splitPayload('sse.ignored-line', 'raw LF inside a payload', '\n'),
  splitPayload('sse.ignored-line', 'raw CR inside a payload', '\r'),
  splitPayload('sse.early-dispatch', 'blank line inside a payload', '\n\n'),
  splitPayload('sse.multi-line-data', 'one payload over two data lines', '\ndata: '),
  {
    rule: 'sse.invalid-utf8',
    name: 'invalid UTF-8 inside a payload',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => {
      const data = events[site] ?? '';
      const cut = Math.floor(data.length / 2);
      return at(events, site, bytesOf(`data: ${data.slice(0, cut)}`, [0xc3, 0x28], `${data.slice(cut)}\n\n`));
    },
  },
  {
    rule: 'sse.unterminated-event',
    name: 'stream cut inside an event',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => ({
      parts: [...events.slice(0, site).map(event), `data: ${(events[site] ?? '').slice(0, 10)}`],
      target: site,
    }),
  },
  {
    rule: 'sse.unterminated-last-event',
    name: 'capture saved without the blank line after its last event',
    dialects: ['json', 'xml', 'raw', 'anthropic-messages', 'openai-responses'],
    sites: (events) => (events.length > 0 ? [events.length - 1] : []),
    apply: (events, site) => ({
      parts: [...events.slice(0, site).map(event), `data: ${events[site] ?? ''}\n`],
      target: site,
    }),
  },
  {
    rule: 'sse.oversize-line',
    name: 'data line over 2048 bytes',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === false),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, delta: 'x'.repeat(2100) })),
  },
  {
    rule: 'sse.event-without-data',
    name: 'event type with no data',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => insertedBefore(events, site, 'event: ping\n\n'),
  },
  {
    rule: 'sse.id-with-nul',
    name: 'id with NUL',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => at(events, site, `id: 4\u00002\n${event(events[site] ?? '')}`),
  },
  {
    rule: 'sse.invalid-retry',
    name: 'retry not all digits',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => at(events, site, `retry: 1.5s\n${event(events[site] ?? '')}`),
  },
  {
    rule: 'sse.unknown-field',
    name: 'unknown field',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => at(events, site, `x-trace: 4f2a\n${event(events[site] ?? '')}`),
  },
];

const ERROR_FRAME = JSON.stringify({
  error: 'APIStatusError',
  message: 'Overloaded',
  traceback: 'Traceback (most recent call last):\n  …',
});

const STREAM: FaultKind[] = [
  {
    rule: 'stream.missing-done',
    name: 'final marker [DONE] dropped',
    dialects: ['json', 'xml', 'raw'],
    sites: doneSite,
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end' }),
  },
  {
    rule: 'stream.error-frame',
    name: 'error frame instead of the rest of the run',
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => ({ parts: [...events.slice(0, site).map(event), event(ERROR_FRAME)], target: site }),
  },
  {
    rule: 'stream.after-done',
    name: 'event after [DONE]',
    dialects: ['json', 'xml', 'raw'],
    sites: doneSite,
    apply: (events, site) => ({ parts: [...events.map(event), event(events[site - 1] ?? '')], target: events.length }),
  },
  {
    rule: 'stream.meta-init-not-first',
    name: "agent content before its meta_init (a sub-agent's too)",
    dialects: ['json'],
    sites: (events) =>
      envelopesOf('meta_init')(events).filter((i) => {
        const agent = parse(events[i] ?? '')?.['agent'];
        return events.slice(i + 1).some((d) => parse(d)?.['agent'] === agent && parse(d)?.['type'] !== KIND.meta_init);
      }),
    apply: (events, site) => {
      const agent = parse(events[site] ?? '')?.['agent'];
      const first = events.findIndex((d, i) => i > site && parse(d)?.['agent'] === agent);
      const moved = [...events];
      const [meta] = moved.splice(site, 1);
      moved.splice(first, 0, meta ?? '');
      return { parts: moved.map(event), target: first };
    },
  },
  {
    rule: 'stream.format-mismatch',
    name: 'meta_init announces another format',
    dialects: ['json'],
    sites: envelopesOf('meta_init', (e) => typeof e['delta'] === 'string' && e['delta'].includes('"format": "json"')),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        delta: String(e['delta']).replace('"format": "json"', '"format": "xml"'),
      })),
  },
  {
    rule: 'stream.compressed-body',
    name: 'gzip body without Content-Encoding',
    dialects: ['json', 'xml', 'raw'],
    sites: () => [0],
    // A gzip member header (RFC 1952: 1F 8B, deflate, no flags, no time, no extra flags, Unix); the bytes after it are what a decoder would see as garbage.
    apply: (events) => ({
      parts: [Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]), ...events.map(event)],
      target: 0,
    }),
  },
  {
    rule: 'stream.format-undetected',
    name: 'events of no known format',
    dialects: ['json', 'xml', 'raw'],
    sites: () => [0],
    apply: (events) => ({
      parts: [...Array.from({ length: 8 }, (_, i) => event(`plain text ${i}`)), ...events.map(event)],
      target: 7,
    }),
  },
];

const JSON_FAULTS: FaultKind[] = [
  {
    rule: 'json.invalid',
    name: 'envelope cut short',
    dialects: ['json'],
    sites: envelopesOf('text'),
    apply: (events, site) => at(events, site, event((events[site] ?? '').slice(0, -4))),
  },
  {
    rule: 'json.lone-surrogate',
    name: 'half an emoji escaped',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === false),
    apply: (events, site) => at(events, site, event((events[site] ?? '').replace('"delta":"', '"delta":"\\ud83d'))),
  },
  ...(['type', 'agent', 'final', 'delta'] as const).map((field): FaultKind => ({
    rule: 'envelope.missing-field',
    name: `envelope without "${field}"`,
    dialects: ['json'],
    sites: envelopesOf('text'),
    apply: (events, site) =>
      withFields(events, site, (e) => {
        const { [field]: _dropped, ...rest } = e;
        return rest;
      }),
  })),
  ...(
    [
      ['final', 'true'],
      ['delta', 42],
      ['agent', null],
      ['type', [KIND.text]],
    ] as const
  ).map(([field, value]): FaultKind => ({
    rule: 'envelope.field-type',
    name: `envelope with "${field}": ${JSON.stringify(value)}`,
    dialects: ['json'],
    sites: envelopesOf('text'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, [field]: value })),
  })),
  {
    rule: 'envelope.unknown-type',
    name: 'envelope of an unknown type',
    dialects: ['json'],
    sites: envelopesOf('text'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, type: 'hook_progress' })),
  },
  {
    rule: 'envelope.over-budget-after-escaping',
    name: 'chunk over budget through escaping',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === false),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, delta: '"'.repeat(1200) })),
  },
  {
    rule: 'envelope.over-budget',
    name: 'payload not chunked',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === false),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, delta: 'y'.repeat(3000) })),
  },
  {
    rule: 'envelope.payload-json',
    name: 'JSON payload that does not parse',
    dialects: ['json'],
    sites: (events) =>
      [
        ...envelopesOf('meta_final')(events),
        ...envelopesOf('tool_call')(events),
        ...envelopesOf('server_tool_call')(events),
      ].filter((i) => parse(events[i] ?? '')?.['final'] === true),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, delta: `${String(e['delta'])}}]` })),
  },
];

const xmlItems = (pattern: RegExp) => (events: readonly string[]) => indexes(events, (data) => pattern.test(data));

const XML_FAULTS: FaultKind[] = [
  // Where the block is found unclosed: the item after the missing close tag, or its open tag at the end.
  {
    rule: 'xml.unclosed',
    name: 'close tag dropped',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) => ({
      parts: replaced(events, site),
      target: site,
      alternative: openTagBefore(events, site),
    }),
  },
  // Text deltas may hold any close tag (they are not escaped), so a wrong one inside a block is text.
  {
    rule: 'xml.unclosed',
    name: 'close tag of another block',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) => ({
      parts: replaced(
        events,
        site,
        event((events[site] ?? '').includes('text') ? '</content-block-thinking>' : '</content-block-text>'),
      ),
      target: site + 1,
      alternative: openTagBefore(events, site),
    }),
  },
  {
    rule: 'xml.mismatched',
    name: 'close tag with no open block',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'xml.unknown-tag',
    name: 'unknown content-block tag',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) =>
      insertedAfter(events, site, event('<content-block-rollback data="{}"></content-block-rollback>')),
  },
  {
    rule: 'xml.bad-entity',
    name: 'unknown character entity in an attribute',
    dialects: ['xml'],
    sites: xmlItems(/^<meta_init data=".*&quot;/),
    apply: (events, site) => at(events, site, event((events[site] ?? '').replace('&quot;', '&quott;'))),
  },
  {
    rule: 'xml.broken-cdata',
    name: 'unclosed CDATA',
    dialects: ['xml'],
    sites: xmlItems(/<!\[CDATA\[.*\]\]><\/content-block-/),
    apply: (events, site) =>
      at(events, site, event((events[site] ?? '').replace(/\]\]>(<\/content-block-[a-z_]+>)$/, '$1'))),
  },
  {
    rule: 'xml.attr-json',
    name: 'attribute JSON that does not parse',
    dialects: ['xml'],
    sites: xmlItems(/^<content-block-(server_)?tool_call .*arguments="/),
    apply: (events, site) =>
      at(events, site, event((events[site] ?? '').replace(/arguments="[^"]*"/, 'arguments="{&quot;a&quot;: }"'))),
  },
  {
    rule: 'xml.malformed',
    name: 'text outside any block',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) => insertedAfter(events, site, event('stray text after the block closed')),
  },
  {
    rule: 'xml.subagent-unattributed',
    name: 'sub-agent meta_init',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) =>
      insertedAfter(
        events,
        site,
        event(
          `<meta_init data="{&quot;agent_uuid&quot;: &quot;${AGENT}&quot;, &quot;parent_agent_uuid&quot;: &quot;55555555-5555-4555-8555-555555555555&quot;}"></meta_init>`,
        ),
      ),
  },
  {
    rule: 'xml.overlapping-blocks',
    name: "a sub-agent's block opens inside another block",
    dialects: ['xml'],
    sites: xmlItems(/^<content-block-text>$/),
    apply: (events, site) => ({
      parts: [
        ...events.slice(0, site).map(event),
        event(
          `<meta_init data="{&quot;agent_uuid&quot;: &quot;${AGENT}&quot;, &quot;parent_agent_uuid&quot;: &quot;55555555-5555-4555-8555-555555555555&quot;}"></meta_init>`,
        ),
        event('<content-block-thinking>'),
        ...events.slice(site).map(event),
      ],
      target: site + 2,
    }),
  },
  {
    rule: 'xml.legacy-tag-name',
    name: 'server tool under the client tool tag',
    dialects: ['xml'],
    sites: xmlItems(/^<\/content-block-(text|thinking)>$/),
    apply: (events, site) =>
      insertedAfter(
        events,
        site,
        event('<content-block-tool_call id="srvtoolu_01" name="web_search" arguments="{}"></content-block-tool_call>'),
      ),
  },
  {
    rule: 'xml.unescaped-stream',
    name: 'backslash upstream escaping cannot produce',
    dialects: ['xml'],
    sites: (events) =>
      indexes(events, (data, i) => i > 0 && events[i - 1] === '<content-block-text>' && !data.startsWith('<')),
    apply: (events, site) => at(events, site, event(`C:\\q ${events[site] ?? ''}`)),
  },
];

const rawEvents = (type: string) => (events: readonly string[]) =>
  indexes(events, (data) => parse(data)?.['type'] === type);

const RAW_FAULTS: FaultKind[] = [
  {
    rule: 'raw.unknown-event',
    name: 'unknown stream event',
    dialects: ['raw'],
    sites: rawEvents('content_block_stop'),
    apply: (events, site) => insertedBefore(events, site, event('{"type":"content_block_flush","index":0}')),
  },
  {
    rule: 'raw.index-mismatch',
    name: 'delta for a block that is not open',
    dialects: ['raw'],
    sites: rawEvents('content_block_delta'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, index: 9 })),
  },
  {
    rule: 'raw.block-not-stopped',
    name: 'content_block_stop dropped',
    dialects: ['raw'],
    sites: rawEvents('content_block_stop'),
    apply: (events, site) => {
      const index = parse(events[site] ?? '')?.['index'];
      let start = site - 1;
      while (
        start > 0 &&
        !(
          parse(events[start] ?? '')?.['type'] === 'content_block_start' &&
          parse(events[start] ?? '')?.['index'] === index
        )
      )
        start--;
      return { parts: replaced(events, site), target: start };
    },
  },
];

/**
 * The text deltas of the final marker's agent since its block opened (other agents' envelopes
 * in between are skipped): the first attempt a retried API call replays.
 */
function attemptBefore(events: readonly string[], site: number): string[] {
  const agent = parse(events[site] ?? '')?.['agent'];
  const attempt: string[] = [];
  for (let i = site - 1; i >= 0; i--) {
    const e = parse(events[i] ?? '');
    if (!e || e['agent'] !== agent) continue;
    if (e['type'] !== KIND.text || e['final'] !== false) break;
    attempt.unshift(events[i] ?? '');
  }
  return attempt;
}

function deltaText(events: readonly string[]): string {
  return events
    .map((d) => parse(d)?.['delta'])
    .map((delta) => (typeof delta === 'string' ? delta : ''))
    .join('');
}

const RECONSTRUCT: FaultKind[] = [
  {
    rule: 'block.id-changed',
    name: 'chunk of a payload with another id',
    dialects: ['json'],
    sites: (events) =>
      [...envelopesOf('tool_call')(events), ...envelopesOf('server_tool_call')(events)].filter(
        (i) => parse(events[i] ?? '')?.['final'] === true,
      ),
    apply: (events, site) => {
      const e = parse(events[site] ?? '') ?? {};
      // The original final chunk, now after a first chunk with another id, is where the id changes.
      return {
        ...insertedBefore(events, site, event(JSON.stringify({ ...e, final: false, delta: '', id: 'toolu_other' }))),
        target: site + 1,
      };
    },
  },
  {
    rule: 'block.final-with-content',
    name: 'final marker with content',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === true),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, delta: ' and more' })),
  },
  {
    rule: 'block.content-after-final',
    name: 'chunk after its payload completed',
    dialects: ['json'],
    sites: (events) =>
      [...envelopesOf('tool_result')(events), ...envelopesOf('server_tool_result')(events)].filter(
        (i) => parse(events[i] ?? '')?.['final'] === true,
      ),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'block.unterminated',
    name: 'final marker of the last block dropped',
    dialects: ['json'],
    sites: (events) => {
      const finals = envelopesOf('text', (e) => e['final'] === true)(events);
      const last = finals.at(-1);
      return last === undefined ? [] : [last];
    },
    apply: (events, site) => ({ parts: replaced(events, site), target: site - 1 }),
  },
  {
    rule: 'block.restarted',
    name: 'retried API call replays a block',
    dialects: ['json'],
    sites: (events) =>
      envelopesOf(
        'text',
        (e) => e['final'] === true,
      )(events).filter((i) => deltaText(attemptBefore(events, i)).length >= 8),
    apply: (events, site) => {
      const attempt = attemptBefore(events, site);
      return {
        parts: [...events.slice(0, site).map(event), ...attempt.map(event), ...events.slice(site).map(event)],
        target: site + attempt.length - 1,
      };
    },
  },
  {
    rule: 'block.not-finalised',
    name: 'text block left without its final envelope while another block streams, then continued',
    dialects: ['json'],
    sites: envelopesOf('text', (e) => e['final'] === true && e['delta'] === ''),
    apply: (events, site) => {
      const final = parse(events[site] ?? '') ?? {};
      const envelope = (fields: Json): string => event(JSON.stringify({ ...final, ...fields }));
      const interruption = [
        envelope({ type: KIND.thinking, final: false, delta: 'meanwhile' }),
        envelope({ type: KIND.thinking, final: true, delta: '' }),
        envelope({ final: false, delta: ' more' }),
      ];
      return {
        parts: [...events.slice(0, site).map(event), ...interruption, ...events.slice(site).map(event)],
        target: site,
      };
    },
  },
  {
    rule: 'citation.orphan',
    name: 'citation before any text',
    dialects: ['json'],
    sites: envelopesOf('meta_init'),
    apply: (events, site) => {
      const agent = parse(events[site] ?? '')?.['agent'];
      return insertedAfter(
        events,
        site,
        event(
          JSON.stringify({
            type: KIND.citation,
            agent,
            final: true,
            delta: 'The grass is green.',
            citation_type: 'char_location',
            document_index: 0,
          }),
        ),
      );
    },
  },
  {
    rule: 'tool-result-image.orphan',
    name: 'image with no open tool_result',
    dialects: ['json'],
    sites: envelopesOf('meta_init'),
    apply: (events, site) => {
      const agent = parse(events[site] ?? '')?.['agent'];
      return insertedAfter(
        events,
        site,
        event(
          JSON.stringify({
            type: KIND.tool_result_image,
            agent,
            final: false,
            delta: '',
            id: 'toolu_none',
            name: 'chart',
            src: '/img',
            media_type: 'image/png',
          }),
        ),
      );
    },
  },
  {
    rule: 'tool.result-without-call',
    name: 'tool_result without a call',
    dialects: ['json'],
    sites: envelopesOf('meta_init'),
    apply: (events, site) => {
      const agent = parse(events[site] ?? '')?.['agent'];
      return insertedAfter(
        events,
        site,
        event(
          JSON.stringify({
            type: KIND.tool_result,
            agent,
            final: true,
            delta: 'yes',
            id: 'toolu_nocall',
            name: 'user_confirm',
          }),
        ),
      );
    },
  },
  {
    rule: 'tool.call-without-result',
    name: 'tool call whose result is dropped',
    dialects: ['json'],
    sites: (events) =>
      envelopesOf(
        'tool_result',
        (e) => e['final'] === true,
      )(events).filter((i) => {
        const id = parse(events[i] ?? '')?.['id'];
        return events.filter((d) => parse(d)?.['type'] === KIND.tool_result && parse(d)?.['id'] === id).length === 1;
      }),
    apply: (events, site) => {
      const id = parse(events[site] ?? '')?.['id'];
      const call = events.findIndex((d) => parse(d)?.['type'] === KIND.tool_call && parse(d)?.['id'] === id);
      return { parts: replaced(events, site), target: call };
    },
  },
];

const ANTHROPIC: readonly DialectId[] = ['anthropic-messages'];
const OPENAI: readonly DialectId[] = ['openai-responses'];
const PROVIDERS: readonly DialectId[] = [...ANTHROPIC, ...OPENAI];
const typed = (test: (type: string, e: Json) => boolean) => (events: readonly string[]) =>
  indexes(events, (data) => {
    const e = parse(data);
    return typeof e?.['type'] === 'string' && test(e['type'], e);
  });
const isTerminal = (type: string): boolean => type === 'message_stop' || type === 'response.completed';
const isDelta = (type: string): boolean => type === 'content_block_delta' || type === 'response.output_text.delta';
/** The event that opened what event `site` addresses (same index, output index and content index). */
function openerOf(events: readonly string[], site: number, opener: (type: string) => boolean): number {
  const e = parse(events[site] ?? '') ?? {};
  for (let i = site - 1; i >= 0; i--) {
    const o = parse(events[i] ?? '') ?? {};
    if (opener(String(o['type'])) && o['index'] === e['index'] && o['output_index'] === e['output_index']) return i;
  }
  return 0;
}

const PROVIDER_FAULTS: FaultKind[] = [
  {
    rule: 'provider.api-error',
    name: 'error event instead of the rest',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => {
      const anthropic = parse(events[site] ?? '')?.['type'] === 'content_block_delta';
      const error = anthropic
        ? { type: KIND.error, error: { type: 'overloaded_error', message: 'Overloaded' } }
        : { type: KIND.error, code: 'rate_limit_exceeded', message: 'Slow down', param: null, sequence_number: site };
      return { parts: [...events.slice(0, site).map(event), event(JSON.stringify(error))], target: site };
    },
  },
  {
    rule: 'provider.response-failed',
    name: 'response.failed instead of response.completed',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.completed'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        type: 'response.failed',
        response: { ...(e['response'] as Json), status: 'failed', error: { code: 'server_error', message: 'boom' } },
      })),
  },
  {
    rule: 'provider.response-incomplete',
    name: 'response.incomplete instead of response.completed',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.completed'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        type: 'response.incomplete',
        response: {
          ...(e['response'] as Json),
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      })),
  },
  {
    rule: 'provider.missing-terminal',
    name: 'terminal event dropped',
    dialects: PROVIDERS,
    sites: typed(isTerminal),
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end' }),
  },
  {
    rule: 'provider.block-not-started',
    name: 'delta for a block never started',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, index: 99, output_index: 99 })),
  },
  {
    rule: 'provider.block-started-twice',
    name: 'block started again while open',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_start' || type === 'response.output_item.added'),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'provider.delta-after-stop',
    name: 'delta after its block or part was done',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_stop' || type === 'response.output_text.done'),
    apply: (events, site) => {
      const e = parse(events[site] ?? '') ?? {};
      const delta =
        e['type'] === 'content_block_stop'
          ? { type: 'content_block_delta', index: e['index'], delta: { type: 'text_delta', text: 'late' } }
          : {
              type: 'response.output_text.delta',
              item_id: e['item_id'],
              output_index: e['output_index'],
              content_index: e['content_index'],
              delta: 'late',
              sequence_number: 0,
            };
      return insertedAfter(events, site, event(JSON.stringify(delta)));
    },
  },
  {
    rule: 'provider.block-not-stopped',
    name: 'stop event dropped',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_stop' || type === 'response.output_item.done'),
    apply: (events, site) => ({
      parts: replaced(events, site),
      target: openerOf(events, site, (type) => type === 'content_block_start' || type === 'response.output_item.added'),
    }),
  },
  {
    rule: 'provider.next-message',
    name: 'a capture holding a second message after the first one ended',
    dialects: PROVIDERS,
    sites: (events) => (events.length > 0 ? [0] : []),
    apply: (events) => ({ parts: [...events.map(event), ...events.map(event)], target: events.length }),
  },
  {
    rule: 'provider.sequence-gap',
    name: 'event missing from the sequence',
    dialects: OPENAI,
    sites: typed(
      (type, e) => typeof e['sequence_number'] === 'number' && !isTerminal(type) && type !== 'response.created',
    ),
    apply: (events, site) => ({ parts: replaced(events, site), target: site }),
  },
  // A stray quote breaks JSON wherever it lands, inside a string or not. Anthropic tool input
  // comes only in deltas, checked at the block's stop; OpenAI's complete arguments come again
  // in the item's done event, which is what a client calls the tool with.
  {
    rule: 'provider.tool-args-invalid',
    name: 'tool input that does not parse',
    dialects: ANTHROPIC,
    sites: typed(
      (type, e) => type === 'content_block_delta' && (e['delta'] as Json | undefined)?.['type'] === 'input_json_delta',
    ),
    apply: (events, site) => {
      const stop = events.findIndex((d, i) => i > site && parse(d)?.['type'] === 'content_block_stop');
      const faulted = withFields(events, site, (e) => ({
        ...e,
        delta: { ...(e['delta'] as Json), partial_json: `${String((e['delta'] as Json)['partial_json'])}"}]` },
      }));
      return { ...faulted, target: stop, alternative: site };
    },
  },
  {
    rule: 'provider.tool-args-invalid',
    name: 'function call arguments that do not parse',
    dialects: OPENAI,
    sites: typed(
      (type, e) =>
        type === 'response.output_item.done' &&
        ['function_call', 'mcp_call'].includes(String((e['item'] as Json | undefined)?.['type'])),
    ),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        item: { ...(e['item'] as Json), arguments: `${String((e['item'] as Json)['arguments'])}"}]` },
      })),
  },
  // Offsets are checked once the text is complete, at its output_text.done.
  {
    rule: 'provider.annotation-out-of-range',
    name: 'annotation past the end of its text',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.output_text.annotation.added'),
    apply: (events, site) => ({
      ...withFields(events, site, (e) => ({
        ...e,
        annotation: { ...(e['annotation'] as Json), start_index: 99_990, end_index: 99_999, index: 99_999 },
      })),
      alternative: events.findIndex((d, i) => i > site && parse(d)?.['type'] === 'response.output_text.done'),
    }),
  },
  {
    rule: 'provider.unknown-event',
    name: 'event type newer than the inspector',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) =>
      insertedBefore(
        events,
        site,
        event(
          JSON.stringify({
            type:
              parse(events[site] ?? '')?.['type'] === 'content_block_delta'
                ? 'content_block_flush'
                : 'response.future_event',
            sequence_number: site,
          }),
        ),
      ),
  },
  {
    rule: 'provider.invalid-event',
    name: 'event data that is not an object',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => insertedBefore(events, site, event('[1, 2]')),
  },
];

/** Every fault kind, by layer. */
/** Text deltas that do not end their block: the model text the inline stage reads (docs/inline.md). */
const textDeltaSites = envelopesOf('text', (e) => e['final'] === false && typeof e['delta'] === 'string');

/** The final envelope of the text block the delta at `site` belongs to (block-end findings point there), or the end. */
function textBlockEnd(events: readonly string[], site: number): number | 'end' {
  const agent = parse(events[site] ?? '')?.['agent'];
  for (let i = site + 1; i < events.length; i++) {
    const e = parse(events[i] ?? '');
    if (e?.['type'] === KIND.text && e['agent'] === agent && e['final'] === true) return i;
  }
  return 'end';
}

/** The model text at `site` gains `markup` at its end: a protocol broken inside the text. */
function inTextFault(rule: RuleId, name: string, markup: string, atBlockEnd = false): FaultKind {
  return {
    rule,
    name,
    dialects: ['json'],
    sites: textDeltaSites,
    apply: (events, site) => {
      const faulted = withFields(events, site, (e) => ({ ...e, delta: `${String(e['delta'])}${markup}` }));
      return atBlockEnd ? { ...faulted, target: textBlockEnd(events, site) } : faulted;
    },
  };
}

const INLINE_FAULTS: FaultKind[] = [
  inTextFault('inline.mismatched-close', 'stray closing tool tag in text', ' </search> '),
  inTextFault('inline.invalid-sentinel', 'sentinel header without a type', ' [[SEG_START {"path":"/a"}]] '),
  inTextFault('inline.missing-param', 'tool tag without its required parameter', '<search><path>./src</path></search>'),
  inTextFault(
    'inline.multiple-actions',
    'two tool tags in one turn',
    '<search><query>a</query></search><extract><file_path>b</file_path></extract>',
  ),
  inTextFault(
    'inline.text-after-action',
    'text after the completion',
    '<attempt_completion><result>done</result></attempt_completion> and more',
  ),
  inTextFault('inline.unclosed', 'tool tag never closed', '<search><query>never closed', true),
  inTextFault('inline.no-action', 'reasoning without an action', '<thinking>no action follows</thinking>', true),
];

/** Segment events of one type (docs/inline.md, "The segment-events dialect"). */
function segmentEventsOf(type: string): (events: readonly string[]) => number[] {
  return (events) => indexes(events, (data) => parse(data)?.['type'] === type);
}

const segmentIdAt = (events: readonly string[], site: number): unknown => parse(events[site] ?? '')?.['segment_id'];

const SEGMENT_FAULTS: FaultKind[] = [
  {
    rule: 'segments.unknown-id',
    name: 'content for a segment never started',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_CONTENT'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, segment_id: 'seg_404' })),
  },
  {
    rule: 'segments.started-twice',
    name: 'segment started twice',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_START'),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'segments.content-after-end',
    name: 'content after the segment ended',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_END'),
    apply: (events, site) =>
      insertedAfter(
        events,
        site,
        event(
          JSON.stringify({
            type: 'SEGMENT_CONTENT',
            segment_id: segmentIdAt(events, site),
            payload: { delta: 'late' },
          }),
        ),
      ),
  },
  {
    rule: 'segments.unclosed',
    name: 'segment end missing',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_END'),
    apply: (events, site) => {
      // The finding points at the start of the segment left open.
      const id = segmentIdAt(events, site);
      let start = site;
      while (
        start > 0 &&
        !(parse(events[start] ?? '')?.['type'] === 'SEGMENT_START' && segmentIdAt(events, start) === id)
      )
        start--;
      return { parts: replaced(events, site), target: start };
    },
  },
  {
    rule: 'segments.unknown-type',
    name: 'segment type the protocol does not name',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_START'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, segment_type: `diagram_${site}` })),
  },
  {
    rule: 'segments.malformed-event',
    name: 'event type that is no segment event',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_CONTENT'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, type: 'SEGMENT_PAUSE' })),
  },
];

export const FAULT_KINDS: readonly FaultKind[] = [
  ...SSE,
  ...STREAM,
  ...JSON_FAULTS,
  ...XML_FAULTS,
  ...RAW_FAULTS,
  ...RECONSTRUCT,
  ...PROVIDER_FAULTS,
  ...INLINE_FAULTS,
  ...SEGMENT_FAULTS,
  ...OPENAI_CHAT_FAULTS,
  ...JSON_RPC_FAULTS,
  ...AI_SDK_FAULTS,
  ...AG_UI_FAULTS,
  ...GEMINI_FAULTS,
];

/**
 * The provider APIs name each event's type in an `event:` field, which their dialects detect
 * by: a faulted provider stream gets it back on every event whose data has a string type.
 */
function withEventFields(parts: (string | Uint8Array)[]): (string | Uint8Array)[] {
  return parts.map((part) => {
    if (typeof part !== 'string' || !part.startsWith('data: {')) return part;
    const type = parse(part.slice(6).split('\n')[0] ?? '')?.['type'];
    return typeof type === 'string' ? `event: ${type}\n${part}` : part;
  });
}

/**
 * A faulted line-framed stream: every event written `data: …` and a blank line is one line
 * instead. Parts given as bytes (a line cut without its ending) are kept as they are.
 */
function asLines(parts: (string | Uint8Array)[]): (string | Uint8Array)[] {
  return parts.map((part) => (typeof part === 'string' ? part.replace(/^data: (.*)\n\n/gm, '$1\n') : part));
}

/** Each fault kind at up to `perStream` seeded sites of every clean stream of its dialects. */
export function generateFaults(streams: readonly CleanStream[], seed: number, perStream = 3): Fault[] {
  const random = seededRandom(seed);
  const faults: Fault[] = [];
  for (const kind of FAULT_KINDS) {
    for (const stream of streams.filter((s) => kind.dialects.includes(s.dialect))) {
      const sites = kind.sites(stream.events);
      for (let n = 0; n < perStream && sites.length > 0; n++) {
        const [site] = sites.splice(Math.floor(random() * sites.length), 1);
        if (site === undefined) continue;
        const faulted = kind.apply(stream.events, site);
        faults.push({
          kind,
          stream: stream.name,
          site,
          faulted: stream.eventFields
            ? { ...faulted, parts: withEventFields(faulted.parts) }
            : stream.lines
              ? { ...faulted, parts: asLines(faulted.parts) }
              : faulted,
        });
      }
    }
  }
  return faults;
}
