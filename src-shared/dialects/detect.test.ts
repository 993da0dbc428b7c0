import { describe, expect, it, test } from 'vitest';
import { classifyControlFrame } from '../pipeline/stream-control';
import { listSseFixtures, readFixture, readManifest } from '../../src-main/testing/fixtures';
import { ANTHROPIC_EVENT_TYPES, isAnthropicEvent } from './anthropic-raw/detect';
import { DIALECT_REGISTRY } from './registry';
import { sniffFrame } from './sniff';

/** The dialect the registry detects from one event's data (no `event:` field). */
const detectFormat = (data: string, event = ''): string | undefined =>
  DIALECT_REGISTRY.detect(sniffFrame({ event, data }))?.id;
const isAnthropicEventData = (data: string): boolean => isAnthropicEvent(sniffFrame({ event: '', data }));

/** Every dialect that claims the frame: detection must never be ambiguous. */
const claimants = (data: string, event = ''): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event, data }))).map((m) => m.id);

/** Data of each `data: …` event of a fixture whose events are single lines (not the captured one). */
function eventData(name: string): string[] {
  const text = new TextDecoder().decode(readFixture(name));
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

const metaInitItem = (json: string): string =>
  `<meta_init data="${json.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;')}"></meta_init>`;

describe('detection on the upstream fixtures', () => {
  test.each(listSseFixtures())('%s: no event is claimed by two dialects', (file) => {
    for (const data of eventData(file)) expect(claimants(data).length, data.slice(0, 80)).toBeLessThanOrEqual(1);
  });

  const manifest = readManifest();

  // A raw continuation leg starts with the XML tool_result item of the resumed tool; the
  // pipeline switches to raw at its first Anthropic event (tested below and in the pipeline).
  const continuationOfRaw = 'frontend_tools_resume.raw.sse';

  test.each(listSseFixtures().filter((f) => f !== continuationOfRaw))(
    '%s: the first content event tells the manifest kind',
    (file) => {
      const entry = manifest[file];
      expect(entry).toBeDefined();
      const first = eventData(file).find((data) => classifyControlFrame(data) === undefined);
      expect(first).toBeDefined();
      expect(detectFormat(first ?? '')).toBe(entry?.kind === 'captured' ? 'xml' : entry?.kind);
    },
  );

  it(`${continuationOfRaw}: starts with an XML item, then Anthropic events follow`, () => {
    const events = eventData(continuationOfRaw);
    expect(detectFormat(events[0] ?? '')).toBe('xml');
    expect(isAnthropicEventData(events[0] ?? '')).toBe(false);
    expect(isAnthropicEventData(events[1] ?? '')).toBe(true);
    // Alone, a bare Anthropic event is the Messages API's; after the leg's XML item, raw takes it over.
    expect(detectFormat(events[1] ?? '')).toBe('anthropic-messages');
    expect(DIALECT_REGISTRY.get('raw')?.takesOver?.(sniffFrame({ event: '', data: events[1] ?? '' }))).toBe(true);
  });

  it('detects json from a meta_init envelope whose delta is only the first chunk of its payload', () => {
    const [first] = eventData('frontend_tools_resume.agent_base.json.sse');
    expect(first).toMatch(/^\{"type":"meta_init",.*"final":false/);
    expect(detectFormat(first ?? '')).toBe('json');
  });

  it('raw streams: every JSON line is an Anthropic event and no XML item is', () => {
    for (const file of listSseFixtures().filter((f) => f.endsWith('.raw.sse'))) {
      for (const data of eventData(file).filter((d) => d !== '[DONE]')) {
        expect(isAnthropicEventData(data), `${file}: ${data.slice(0, 60)}`).toBe(data.startsWith('{'));
      }
    }
  });

  it('no JSON envelope is taken for an Anthropic event', () => {
    for (const file of listSseFixtures().filter((f) => f.endsWith('.json.sse'))) {
      for (const data of eventData(file))
        expect(isAnthropicEventData(data), `${file}: ${data.slice(0, 60)}`).toBe(false);
    }
  });
});

describe('detection', () => {
  test.each([
    ['an XML meta_init announcing raw', 'raw', metaInitItem('{"format": "raw", "user_query": "it\'s <b> & more"}')],
    ['an XML meta_init announcing xml', 'xml', metaInitItem('{"format": "xml"}')],
    ['an XML meta_init announcing json (still an XML item)', 'xml', metaInitItem('{"format": "json"}')],
    ['an XML meta_init with single-quoted data', 'raw', `<meta_init data='{"format": "raw"}'></meta_init>`],
    ['an XML meta_init whose data does not parse', 'xml', '<meta_init data="{&quot;format"></meta_init>'],
    ['an XML meta_init without data', 'xml', '<meta_init></meta_init>'],
    ['any other XML item', 'xml', '<content-block-text>'],
    ['a bare "<"', 'xml', '<'],
    ['a JSON envelope', 'json', '{"type":"text","agent":"a","final":false,"delta":"hi"}'],
    [
      'a JSON envelope of a known type with wrongly typed fields',
      'json',
      '{"type":"text","agent":null,"final":"no","delta":{}}',
    ],
    [
      "a JSON envelope of a hook's own type, its fields typed as specified",
      'json',
      '{"type":"hook_progress","agent":"a","final":true,"delta":""}',
    ],
    ['an Anthropic event with its type last', 'anthropic-messages', '{"message":{"id":"m"},"type":"message_start"}'],
    [
      'an Anthropic error event',
      'anthropic-messages',
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ],
    ['leading whitespace and a BOM', 'anthropic-messages', '\uFEFF \t{"type":"content_block_stop","index":0}'],
  ] as const)('%s → %s', (_name, expected, data) => {
    expect(detectFormat(data)).toBe(expected);
  });

  it('an Anthropic event named by its event: field → anthropic-messages, as without one', () => {
    expect(detectFormat('{"type":"content_block_stop","index":0}', 'content_block_stop')).toBe('anthropic-messages');
  });

  test.each([
    ['an empty string', ''],
    ['plain text', 'hello'],
    ['a truncated object', '{"type":"text","agent":"a"'],
    ['a JSON array', '[{"type":"text"}]'],
    ['an object of neither kind', '{"foo":1}'],
    ['an envelope missing delta', '{"type":"text","agent":"a","final":false}'],
    ['an Anthropic type with an agent', '{"type":"error","agent":"a"}'],
    ['a non-string type', '{"type":5}'],
    // Keep-alives and bare errors of this shape are what many servers send: no Anthropic marker.
    ['a {"type":"ping"} keep-alive', '{"type": "ping"}'],
    ["an error without the API's error object", '{"type":"error","message":"retrying"}'],
    ['the four field names with a non-string type', '{"type":1,"agent":null,"final":"no","delta":{}}'],
    [
      'the four field names, an unknown type and mistyped fields',
      '{"type":"tick","agent":"a","final":"yes","delta":"d"}',
    ],
    ['NUL bytes', '\u0000\u0000'],
    ['a lone surrogate', '\uD800'],
  ])('%s → undefined', (_name, data) => {
    expect(detectFormat(data)).toBeUndefined();
  });
});

describe('isAnthropicEventData', () => {
  test.each([...ANTHROPIC_EVENT_TYPES])('true for a %s event', (type) => {
    expect(isAnthropicEventData(JSON.stringify({ type, index: 0 }))).toBe(true);
  });

  test.each([
    [
      'an XML item',
      '<content-block-tool_result id="t"><![CDATA[{"type":"message_start"}]]></content-block-tool_result>',
    ],
    ['a JSON envelope', '{"type":"text","agent":"a","final":false,"delta":""}'],
    ['an envelope-like object with an Anthropic type and an agent', '{"type":"message_start","agent":"a"}'],
    ['an unknown event type', '{"type":"message_progress"}'],
    ['an object without type', '{"message":{}}'],
    ['the AI SDK UI stream error chunk', '{"type":"error","errorText":"Overloaded"}'],
    ['broken JSON', '{"type":"message_start"'],
    ['[DONE]', '[DONE]'],
    ['an empty string', ''],
  ])('false for %s', (_name, data) => {
    expect(isAnthropicEventData(data)).toBe(false);
  });
});
