import { KIND } from '../envelope/vocabulary';
import {
  type FaultKind,
  event,
  replaced,
  insertedBefore,
  insertedAfter,
  type Json,
  parse,
  envelopesOf,
  withFields,
} from './faults-kit';

/** Faults that reconstruction finds: blocks, tool links, retried calls. */

/**
 * Inserts an envelope with `fields` right after a meta_init, from that agent: before any
 * block of its opens, so what it refers to cannot exist yet.
 */
function envelopeAfterInit(fields: Json): FaultKind['apply'] {
  return (events, site) => {
    const agent = parse(events[site] ?? '')?.['agent'];
    return insertedAfter(events, site, event(JSON.stringify({ type: fields['type'], agent, ...fields })));
  };
}

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

export const RECONSTRUCT: FaultKind[] = [
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
    apply: envelopeAfterInit({
      type: KIND.citation,
      final: true,
      delta: 'The grass is green.',
      citation_type: 'char_location',
      document_index: 0,
    }),
  },
  {
    rule: 'tool-result-image.orphan',
    name: 'image with no open tool_result',
    dialects: ['json'],
    sites: envelopesOf('meta_init'),
    apply: envelopeAfterInit({
      type: KIND.tool_result_image,
      final: false,
      delta: '',
      id: 'toolu_none',
      name: 'chart',
      src: '/img',
      media_type: 'image/png',
    }),
  },
  {
    rule: 'tool.result-without-call',
    name: 'tool_result without a call',
    dialects: ['json'],
    sites: envelopesOf('meta_init'),
    apply: envelopeAfterInit({
      type: KIND.tool_result,
      final: true,
      delta: 'yes',
      id: 'toolu_nocall',
      name: 'user_confirm',
    }),
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
