import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textChunkings } from '../testing/chunking';
import { createInlineDocument, type InlineFinding } from './collect';
import { DEFAULT_INLINE_OPTIONS, INLINE_MODES, type InlineOptions, type Segment } from './types';
import { seededRandom } from '../sse/rechunk';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../resources/fixtures/inline');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.txt'))
  .sort();

/** `json-*` fixtures are read in the json mode, the others in the default (auto) mode. */
const optionsFor = (name: string): InlineOptions =>
  name.startsWith('json-') ? { ...DEFAULT_INLINE_OPTIONS, mode: 'json' } : DEFAULT_INLINE_OPTIONS;

function parsePieces(
  pieces: readonly string[],
  options: InlineOptions,
): { segments: Segment[]; findings: Omit<InlineFinding, 'message'>[] } {
  const findings: InlineFinding[] = [];
  const doc = createInlineDocument(options, (f) => findings.push(f));
  for (const piece of pieces) doc.parser.push(piece);
  doc.parser.end();
  return { segments: doc.segments, findings: findings.map(({ rule, offset }) => ({ rule, offset })) };
}

describe("inline fixtures (written from the protocols' own examples)", () => {
  it('has fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
  });

  describe.each(fixtures)('%s', (name) => {
    const text = readFileSync(join(DIR, name), 'utf8');
    const options = optionsFor(name);
    const whole = parsePieces([text], options);

    it('matches its expected segments and findings', async () => {
      await expect(`${JSON.stringify(whole, null, 2)}\n`).toMatchFileSnapshot(
        join(DIR, name.replace(/\.txt$/, '.expected.json')),
      );
    });

    it.each(
      textChunkings(text)
        .slice(1)
        .map((c) => [c.name, c.pieces] as const),
    )('gives the same result when fed %s', (_name, pieces) => {
      expect(parsePieces(pieces, options)).toEqual(whole);
    });

    it('covers the whole text: segment spans are ordered and within the text', () => {
      let last = 0;
      for (const segment of whole.segments) {
        expect(segment.start).toBeGreaterThanOrEqual(last);
        expect(segment.end).toBeGreaterThanOrEqual(segment.start);
        last = segment.end;
      }
      expect(last).toBeLessThanOrEqual(text.length);
    });
  });
});

describe('seeded random text of markers, tags and JSON', () => {
  const ATOMS = [
    ...['<thinking>', '</thinking>', '<search>', '</search>', '<query>', '</query>', '<run_bash>', '</run_bash>'],
    ...['<write_file path="a.txt">', '</write_file>', '<extract>', '</extract>', '<tool_call>', '</tool_call>'],
    ...['[[SEG_START {"type":"run_bash"}]]', '[[SEG_END]]', '[[SEG_START', ']]', '```json\n', '```'],
    ...['{"name":"f","arguments":{"a":1}}', '[{"name":"g","parameters":{}}]', '<function=f>', '</function>'],
    ...[
      'hello ',
      '\n',
      '<',
      '>',
      '</',
      '/>',
      '"',
      '{',
      '}',
      '[',
      ']',
      '<![CDATA[',
      ']]>',
      '&amp;',
      'é',
      '😀',
      '\ud800',
    ],
  ];

  it('gives the same segments and findings however the text is split, in every mode (1,000 texts)', () => {
    const random = seededRandom(20_261_130);
    const differ: string[] = [];
    let withSegments = 0;
    for (let i = 0; i < 1000; i++) {
      let text = '';
      for (let n = 1 + Math.floor(random() * 16); n > 0; n--) text += ATOMS[Math.floor(random() * ATOMS.length)];
      for (const mode of INLINE_MODES) {
        const options = { ...DEFAULT_INLINE_OPTIONS, mode };
        const whole = parsePieces([text], options);
        if (whole.segments.length > 1) withSegments++;
        for (const { name, pieces } of textChunkings(text, [i, i + 1], 8).slice(1))
          if (JSON.stringify(parsePieces(pieces, options)) !== JSON.stringify(whole))
            differ.push(`${mode}, ${name}: ${JSON.stringify(text)}`);
      }
    }
    expect(differ).toEqual([]);
    // Most texts make segments of their own, not one plain text segment.
    expect(withSegments).toBeGreaterThan(1000);
  });
});
