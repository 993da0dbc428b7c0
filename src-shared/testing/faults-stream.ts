import { bytesOf } from './sse-conformance';
import { KIND } from '../envelope/vocabulary';
import {
  type FaultKind,
  event,
  replaced,
  at,
  insertedBefore,
  parse,
  envelopesOf,
  withFields,
  doneSite,
  payloadSites,
  splitPayload,
} from './faults-kit';

/** SSE framing and stream-level faults (docs/diagnostics.md, the sse.* and stream.* rules). */

export const SSE: FaultKind[] = [
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
    rule: 'sse.fields-without-event',
    name: 'stream ending with an id field alone',
    dialects: ['json', 'xml', 'raw', 'anthropic-messages', 'json-rpc'],
    sites: (events) => (events.length > 0 ? [events.length] : []),
    apply: (events, site) => ({ parts: [...events.map(event), 'id: resume-42\n\n'], target: site }),
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

export const STREAM: FaultKind[] = [
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
    rule: 'stream.done-joined',
    name: '[DONE] sent as the last data line of the event before it',
    dialects: ['json', 'xml', 'raw'],
    sites: (events) => doneSite(events).filter((site) => site > 0),
    apply: (events, site) => ({
      parts: [
        ...events.slice(0, site - 1).map(event),
        `data: ${events[site - 1] ?? ''}\ndata: [DONE]\n\n`,
        ...events.slice(site + 1).map(event),
      ],
      target: site - 1,
    }),
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
