import { describe, expect, it } from 'vitest';
import { jsonText } from '../../json/tree';
import { decodeLegs } from '../../pipeline/session-decoder';
import { seededRandom, splitRandom } from '../../sse/rechunk';
import { chunkIndependent } from '../../testing/fuzz-checks';
import { AGENT_IDS, int, pick, text, type Random } from '../../testing/fuzz';
import { encodeUtf8 } from '../../text/utf8';
import { xmlStreamEscape } from './escaping';
import { escapeAttribute } from './fuzz';

/**
 * The XML dialect reads a delta inside an open block, its hottest item, without asking what
 * else it could be (decoder.ts, `push`). Every stream here decodes to the same envelopes,
 * blocks, agents, findings and statistics with that path on (the default) as with
 * `readShapes: false`, whole and in random chunks. (pipeline/fast-paths.test.ts compares
 * the recorded fixtures, XML ones included, the same way.)
 */

const sse = (data: string): string => `data: ${data}\n\n`;

/** Text a delta may hold: markup, escapes, entities, characters beyond ASCII. */
const DELTA_PIECES = [
  'plain ',
  '<',
  '>',
  '</content-block-text>',
  '<content-block-thinking>',
  '<chart type="bar">1</chart>',
  "<table a='1' />",
  '<content-block-rollback />',
  '\\\\',
  '\\n',
  '\\"',
  '\\',
  '&amp;',
  'é',
  '数据',
  '🚀',
  '\n',
];

function delta(random: Random): string {
  let s = '';
  for (let n = 1 + int(random, 5); n > 0; n--) s += random() < 0.5 ? text(random) : pick(random, DELTA_PIECES);
  return s;
}

/**
 * An element of the vocabulary or a stray tag, its JSON shallow (the fuzz grammar's deep JSON
 * is for the iterative checks of the fuzz tests, not for toEqual).
 */
function element(random: Random): string {
  const args = escapeAttribute(jsonText({ path: text(random), n: int(random, 99) }));
  const id = `toolu_${int(random, 9)}`;
  return pick(random, [
    `<content-block-tool_call id="${id}" name="f" arguments="${args}"></content-block-tool_call>`,
    `<content-block-tool_call id="${id}" name="f" arguments="{&bogus;"/>`,
    `<content-block-tool_result id="${id}" name="f"><![CDATA[${text(random)}]]></content-block-tool_result>`,
    `<content-block-tool_result id="${id}" name="f"><![CDATA[${text(random)}</content-block-tool_result>`,
    `<content-block-web_search_tool_result id="srvtoolu_1"><![CDATA[${text(random)}]]></content-block-web_search_tool_result>`,
    `<citations><citation type="char_location" cited_text="x"><![CDATA[${text(random)}]]></citation></citations>`,
    `<meta_final data="${args}"></meta_final>`,
    `<content-block-error><![CDATA[${text(random)}]]></content-block-text>`,
    '<content-block-rollback />',
    '<unknown_tag a="1" />',
    '</content-block-tool_call>',
  ]);
}

/** A tool call of 1,024 characters or more, unescaped on its bytes when ASCII (escaping.ts). */
function longToolCall(random: Random): string {
  let content = '';
  while (content.length < 1100) content += random() < 0.3 ? 'line\n' : random() < 0.1 ? 'é ' : 'C:\\temp "q" ';
  const args = escapeAttribute(jsonText({ path: 'a.md', content }));
  const item = `<content-block-tool_call id="toolu_${int(random, 9)}" name="write" arguments="${args}"></content-block-tool_call>`;
  return random() < 0.8 ? xmlStreamEscape(item) : item;
}

/** A meta_init, then blocks of varied deltas among the vocabulary's other items. */
function xmlStream(random: Random): string {
  let out = sse(
    `<meta_init data="${escapeAttribute(jsonText({ format: 'xml', agent_uuid: pick(random, AGENT_IDS), parent_agent_uuid: random() < 0.2 ? pick(random, AGENT_IDS) : null }))}"></meta_init>`,
  );
  for (let i = 0; i < 80; i++) {
    const roll = random();
    let data: string;
    if (roll < 0.08) data = pick(random, ['<content-block-text>', '<content-block-thinking>']);
    else if (roll < 0.14) data = pick(random, ['</content-block-text>', '</content-block-thinking>']);
    else if (roll < 0.2) data = element(random);
    else if (roll < 0.24) data = longToolCall(random);
    else data = delta(random);
    // A raw newline would end the data line: write it as a second data line (upstream never does).
    out += sse(data.replaceAll('\n', '\ndata: '));
  }
  return out;
}

/** Whole and in random chunks (statistics count chunks: each way is compared at the same cuts). */
function decodeBoth(bytes: Uint8Array, seed: number): void {
  for (const chunks of [[bytes], splitRandom(bytes, seed)]) {
    const legs = [chunks.map((chunk) => ({ bytes: chunk }))];
    const fast = decodeLegs(legs);
    const general = decodeLegs(legs, { readShapes: false });
    expect(chunkIndependent(fast)).toEqual(chunkIndependent(general));
    expect(fast.stats).toEqual(general.stats);
  }
}

describe('the XML dialect reads deltas on its fast path as its general path reads them', () => {
  it('seeded random streams: deltas with markup, escapes and entities, among tags and elements', () => {
    for (let seed = 1; seed <= 40; seed++) decodeBoth(encodeUtf8(xmlStream(seededRandom(seed))), seed);
  });

  it('the streams exercise the fast path: most deltas arrive inside an open block', () => {
    const result = decodeLegs([[{ bytes: encodeUtf8(xmlStream(seededRandom(3))) }]]);
    const deltas = result.envelopes.filter((e) => (e.type === 'text' || e.type === 'thinking') && e.delta !== '');
    expect(deltas.length).toBeGreaterThan(20);
  });
});
