import { KIND } from '../envelope/vocabulary';
import {
  type FaultKind,
  event,
  replaced,
  at,
  insertedBefore,
  insertedAfter,
  indexes,
  parse,
  envelopesOf,
  withFields,
  openTagBefore,
  AGENT,
} from './faults-kit';

/** Faults of the upstream agent's three wire formats (json, xml, raw). */

export const JSON_FAULTS: FaultKind[] = [
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

export const XML_FAULTS: FaultKind[] = [
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

export const RAW_FAULTS: FaultKind[] = [
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
