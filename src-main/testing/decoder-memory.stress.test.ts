import { describe, expect, test } from 'vitest';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../src-shared/sse/rechunk';
import { fuzzGrammar as xmlGrammar } from '../../src-shared/dialects/legacy-xml/fuzz';
import { generateStreams } from '../../src-shared/testing/fuzz-streams';
import { encodeUtf8 } from '../../src-shared/text/utf8';
import { readFixture } from './fixtures';
import { MAX_LEAKED_BYTES, MAX_RETAINED_PER_INPUT_BYTE, measureHeap } from './fuzz-runner';

/**
 * The decoder's memory on large inputs, and the check itself checked: what a decode keeps
 * while it runs, and that it keeps nothing once its result is dropped. A stress step of its
 * own in `npm test` (`npm run test:stress`), apart from the unit suite.
 */

const MIB = 1024 * 1024;

function repeatTo(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(size / bytes.length) * bytes.length);
  for (let at = 0; at < out.length; at += bytes.length) out.set(bytes, at);
  return out;
}

describe('memory stays bounded', () => {
  const inputs: [string, () => Uint8Array][] = [
    [
      '2 MiB of real raw events (example_1.raw.sse repeated)',
      () => repeatTo(readFixture('example_1.raw.sse'), 2 * MIB),
    ],
    [
      '2 MiB of real json envelopes (multi_agent.json.sse repeated)',
      () => repeatTo(readFixture('multi_agent.json.sse'), 2 * MIB),
    ],
    [
      'one 8 MiB envelope',
      () => encodeUtf8(`data: {"type":"text","agent":"a","final":false,"delta":"${'\\n'.repeat(4 * MIB)}"}\n\n`),
    ],
    ['4 MiB with no line ending', () => encodeUtf8(`data: ${'x'.repeat(4 * MIB)}`)],
    ['generated xml streams, 1 MiB', () => generateStreams(xmlGrammar, seededRandom(9), MIB)],
    [
      '2 MiB of data lines and no blank line (one event that never ends)',
      () => encodeUtf8('data: xxxxxxxxxxxxxxxxxxxxxxx\n'.repeat((2 * MIB) / 30)),
    ],
  ];

  test.each(inputs)(
    '%s',
    async (_name, make) => {
      const use = await measureHeap(make());
      expect(use.retainedBytes / use.inputBytes).toBeLessThan(MAX_RETAINED_PER_INPUT_BYTE);
      expect(use.leakedBytes).toBeLessThan(MAX_LEAKED_BYTES);
    },
    120_000,
  );

  test('a decoder that keeps what it decoded after the result is dropped is caught', async () => {
    const kept: unknown[] = [];
    const leaky = (bytes: Uint8Array) => {
      const result = decodeBytes(bytes);
      kept.push(result);
      return result;
    };
    const use = await measureHeap(repeatTo(readFixture('multi_agent.json.sse'), 2 * MIB), leaky);
    expect(kept).toHaveLength(1);
    expect(use.leakedBytes).toBeGreaterThan(MAX_LEAKED_BYTES);
  }, 120_000);
});
