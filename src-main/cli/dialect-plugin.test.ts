import { describe, expect, it } from 'vitest';
import { createDialectRegistry, DIALECT_IDS, DIALECTS, type DialectId } from '../../src-shared/dialects/registry';
import type { DialectModule } from '../../src-shared/dialects/types';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { encodeUtf8 } from '../../src-shared/text/utf8';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * A dialect added the way docs/dialects.md says: one module and one registry line. Its wire
 * is plain text lines sent as `event: line` events, each one a text delta, and `event: end`
 * closes the text and the stream (declared through onStreamEnd). Nothing else in the
 * inspector is edited for it.
 */
const linesDialect: DialectModule<'lines'> = {
  id: 'lines',
  label: 'Plain text lines',
  detect: (frame) => frame.event === 'line',
  create: (callbacks) => ({
    id: 'lines' as DialectId,
    push(frame) {
      const final = frame.event === 'end';
      callbacks.onEnvelope({
        frame: frame.seq,
        agent: 'a',
        type: 'text',
        final,
        delta: final ? '' : `${frame.data}\n`,
        extras: {},
      });
      // Its own terminal event, declared so the session's end status is "done".
      if (final) callbacks.onStreamEnd?.({ event: 'end' });
    },
    end() {},
  }),
  syntax: 'json',
  terminator: 'dialect',
};

const registry = createDialectRegistry([...DIALECTS, linesDialect], 'json');
const stream = 'event: line\ndata: first\n\nevent: line\ndata: second\n\nevent: end\ndata: \n\n';

describe('a dialect registered in a registry', () => {
  it('is detected from its event field and decodes to blocks, with no missing-[DONE] finding', () => {
    const result = decodeBytes(encodeUtf8(stream), { dialects: registry });
    expect(result.formats).toEqual(['lines']);
    expect(result.envelopes.map((e) => e.dialect)).toEqual(['lines', 'lines', 'lines']);
    expect(result.blocks.map((b) => [b.kind, b.content, b.status])).toEqual([['text', 'first\nsecond\n', 'complete']]);
    expect(result.diagnostics.map((d) => d.rule)).toEqual([]);
  });

  it('is unknown to the built-in registry, which falls back to JSON envelopes', () => {
    expect(decodeBytes(encodeUtf8(stream)).formats).toEqual(['json']);
  });

  it('flows through the CLI: --format accepts its id and inspect names it', async () => {
    const io = { ...memoryIo(stream), dialects: registry };
    expect(await main(['inspect', '-', '--format', 'lines', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out()) as {
      formats: string[];
      blocks: number;
      status: { kind: string; reason: string };
    };
    expect(report.formats).toEqual(['lines']);
    expect(report.status).toMatchObject({ kind: 'done', reason: 'The stream ended with end.' });

    const detected = { ...memoryIo(stream), dialects: registry };
    expect(await main(['blocks', '-', '--json'], detected)).toBe(0);
    expect((JSON.parse(detected.out()) as { content: string }[]).map((b) => b.content)).toEqual(['first\nsecond\n']);
  });

  it('the built-in CLI rejects the id it does not know, listing the registered ones', async () => {
    const io = memoryIo(stream);
    expect(await main(['inspect', '-', '--format', 'lines'], io)).toBe(2);
    expect(io.err()).toContain(`--format must be one of auto, ${DIALECT_IDS.join(', ')}`);
  });

  it('a registry refuses duplicate ids and continuations of unregistered dialects', () => {
    expect(() => createDialectRegistry([...DIALECTS, { ...linesDialect, id: 'json' }], 'json')).toThrow(
      /registered twice/,
    );
    expect(() =>
      createDialectRegistry([linesDialect, { ...linesDialect, id: 'more', continues: ['nope'] }], 'lines'),
    ).toThrow(/continues nope/);
  });
});
