/**
 * The short fuzz run of `npm test` (a few seconds; `npm run fuzz` runs the long one) and the
 * checks themselves checked (the memory check is decoder-memory.stress.test.ts): a property that cannot
 * fail proves nothing.
 */
import { describe, expect, test } from 'vitest';
import { DIALECT_IDS, type DialectId } from '../../src-shared/dialects/registry';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../src-shared/sse/rechunk';
import { checkDecoded, checkInput } from '../../src-shared/testing/fuzz-checks';
import { makeInput, minimise, type FuzzOptions } from '../../src-shared/testing/fuzz-loop';
import { generateStream } from '../../src-shared/testing/fuzz-streams';
import { encodeUtf8 } from '../../src-shared/text/utf8';
import { readFixture } from './fixtures';
import { builtInFuzzGrammars } from './fuzz-grammars';
import { fixtureSeeds, runFuzz } from './fuzz-runner';

const grammars = builtInFuzzGrammars();
const options: FuzzOptions = {
  seed: 20_261_125,
  seeds: fixtureSeeds(),
  limits: { hugeLineBytes: 256 * 1024 },
  grammars,
};
const DIALECTS: readonly DialectId[] = DIALECT_IDS;
/** About three seconds on an idle CI core. */
const SUITE_INPUTS = 60;

describe('short fuzz run', () => {
  test('no exception, frames tile the input, envelopes point at frames, results do not depend on chunking', () => {
    // A fixed number of inputs, not a time box: the same inputs on a fast or a loaded machine.
    const report = runFuzz(options, Number.POSITIVE_INFINITY, SUITE_INPUTS);
    expect(Object.keys(report.byDialect).sort()).toEqual([...DIALECTS].sort());
    expect(report.inputs).toBe(SUITE_INPUTS);
    expect(report.failures.map((f) => ({ index: f.index, recipe: f.recipe.join(' + '), ...f.failure }))).toEqual([]);
  }, 60_000);

  test('an input is a function of (seed, index), so a failure is reproduced from its pair', () => {
    const bytes = (seed: number) => Buffer.from(makeInput({ ...options, seed }, 17).bytes);
    expect(bytes(options.seed).equals(bytes(options.seed))).toBe(true);
    expect(bytes(options.seed).equals(bytes(options.seed + 1))).toBe(false);
  });

  test('every registered dialect has its grammar, found in its folder', () => {
    expect([...grammars.keys()]).toEqual(DIALECTS);
  });

  test.each(DIALECTS)('the %s grammar generates streams the decoder reads as that dialect', (dialect) => {
    const random = seededRandom(5);
    const grammar = grammars.get(dialect)!;
    const formats = Array.from({ length: 20 }, () => decodeBytes(generateStream(grammar, random)).formats[0]);
    expect(formats.filter((f) => f === dialect).length).toBeGreaterThan(10);
  });
});

describe('regressions found by the fuzzer', () => {
  // Seed 12, input 408 (anthropic-messages/text-citations.sse + splice + line-endings + splice), minimised.
  test("a provider message cut by a [DONE] it never sees is summarised at its own frame, with that frame's bytes", () => {
    const bytes = encodeUtf8(
      'event:message_start\rdata:{"type":"message_start","":{"":"","":[],"":null,"":{"":1}}}\r\rdata:[DONE]\n\n',
    );
    expect(checkInput(bytes, [])).toBeNull();
    const result = decodeBytes(bytes);
    const summary = result.envelopes.find((e) => e.type === 'message');
    expect(summary).toMatchObject({ frame: 0, byteStart: 0, byteEnd: result.frames[0]?.[0]?.byteEnd });
  });

  // Seed 40301, inputs 3010, 4270 and 9970 (MCP fixtures + delete-line …), minimised to these.
  test.each(['id\n\n', 'id:\n\n', 'id:\r\r'])(
    'an id field alone, after the last event or in place of any, is pointed at by a finding (%j)',
    (text) => {
      const bytes = encodeUtf8(`data: {"jsonrpc":"2.0","method":"ping"}\n\n${text}`);
      for (const input of [bytes, encodeUtf8(text)]) {
        expect(checkInput(input, [])).toBeNull();
        expect(decodeBytes(input).diagnostics.map((d) => d.rule)).toContain('sse.fields-without-event');
      }
    },
  );

  // Seed 44044, input 39586 (json-rpc/mcp-rpc-error.sse + inject-control + flip-bytes), minimised to `event\n\n`.
  test.each(['event\n\n', 'event:\n\n', 'event:\r\n\r\n'])(
    'an event field with no type and no data, the last thing in the stream, is pointed at by a finding (%j)',
    (text) => {
      const bytes = encodeUtf8(`data: {"jsonrpc":"2.0","method":"ping"}\n\n${text}`);
      for (const input of [bytes, encodeUtf8(text)]) {
        expect(checkInput(input, [])).toBeNull();
        const findings = decodeBytes(input).diagnostics.filter((d) => d.rule === 'sse.fields-without-event');
        expect(findings.map((d) => d.message)).toEqual([
          'The stream ends with fields that dispatch no event and set nothing a client keeps (an event: field with no type, an empty id); there is no event to show for them.',
        ]);
      }
    },
  );

  // Seed 44044, input 14780 (generated + line-endings + splice), minimised to `[>][]`.
  test('an empty JSON array after the last element of a body streamed as arrays is structure, not lost bytes', () => {
    const bytes = encodeUtf8('[>][]');
    expect(checkInput(bytes, [])).toBeNull();
    expect(decodeBytes(bytes).frames[0]?.map((f) => f.data)).toEqual(['>']);
  });
});

describe('the checks can fail', () => {
  const bytes = readFixture('frontend_tools.json.sse');
  const whole = decodeBytes(bytes);

  test('a clean stream passes', () => {
    expect(checkDecoded(bytes, whole, [whole])).toBeNull();
  });

  test('an exception is caught and reported', () => {
    const failure = checkInput(bytes, [], () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(failure).toEqual({ kind: 'exception', detail: 'RangeError: Maximum call stack size exceeded' });
  });

  test('a gap between frames breaks the tiling', () => {
    const frames = whole.frames[0]!.map((f, i) => (i === 3 ? { ...f, byteStart: f.byteStart + 1 } : f));
    expect(checkDecoded(bytes, { ...whole, frames: [frames] }, [])?.kind).toBe('tiling');
  });

  test('bytes after the last frame that no finding points at break the tiling', () => {
    const cut = encodeUtf8('data: {"type":"text"\n');
    const tail = new Uint8Array([...bytes, ...cut]);
    const result = decodeBytes(tail);
    expect(checkDecoded(tail, result, [])).toBeNull();
    expect(
      checkDecoded(
        tail,
        { ...result, diagnostics: result.diagnostics.filter((d) => d.rule !== 'sse.unterminated-event') },
        [],
      )?.kind,
    ).toBe('tiling');
  });

  test('an envelope pointing at no frame is reported', () => {
    const envelopes = whole.envelopes.map((e, i) => (i === 2 ? { ...e, byteEnd: e.byteEnd + 1 } : e));
    expect(checkDecoded(bytes, { ...whole, envelopes }, [])?.kind).toBe('envelope-frame');
  });

  test('a result that depends on the chunking is reported', () => {
    const other = { ...whole, envelopes: whole.envelopes.slice(1) };
    expect(checkDecoded(bytes, whole, [whole, other])).toEqual({
      kind: 'chunking',
      detail: 'splitting 1 decodes differently from the whole stream',
    });
  });

  test('minimise keeps what makes the input fail', () => {
    const input = encodeUtf8(`${'a'.repeat(500)}BUG${'b'.repeat(500)}`);
    const minimal = minimise(input, (candidate) => new TextDecoder().decode(candidate).includes('BUG'));
    expect(new TextDecoder().decode(minimal)).toBe('BUG');
  });
});
