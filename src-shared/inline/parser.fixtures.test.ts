import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textChunkings } from '../testing/chunking';
import { createInlineDocument, type InlineFinding } from './collect';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions, type Segment } from './types';

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
