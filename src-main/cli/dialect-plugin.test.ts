import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSessions } from '../../src-shared/diff/diff';
import { createDialectRegistry, DIALECT_IDS, DIALECTS, type DialectId } from '../../src-shared/dialects/registry';
import { blockKindLabels, inlineTreatments } from '../../src-shared/dialects/traits';
import type { DialectModule } from '../../src-shared/dialects/types';
import type { ExchangeHints } from '../../src-shared/dialects/evidence';
import { jsonText } from '../../src-shared/json/tree';
import { createCollectingSession, decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../src-shared/sse/rechunk';
import { pick, text, type FuzzDialect } from '../../src-shared/testing/fuzz';
import { generateStream } from '../../src-shared/testing/fuzz-streams';
import { encodeUtf8 } from '../../src-shared/text/utf8';
import { fuzzGrammarsOf } from '../testing/fuzz-grammars';
import { runFuzz } from '../testing/fuzz-runner';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * A dialect added the way docs/dialects.md says: one module and one registry line. Its wire
 * is plain text lines sent as `event: line` events, each one a text delta; `event: note` sends
 * a whole note, a block kind of its own whose text the in-text stage parses; and `event: end`
 * closes the text and the stream (declared through onStreamEnd). Like JSON envelopes, its
 * blocks have no start event. Nothing else in the inspector is edited for it.
 */
const linesDialect: DialectModule<'lines'> = {
  id: 'lines',
  label: 'Plain text lines',
  detect: (frame) => frame.event === 'line',
  create: (callbacks) => ({
    id: 'lines' as DialectId,
    push(frame) {
      const final = frame.event === 'end';
      const note = frame.event === 'note';
      callbacks.onEnvelope({
        frame: frame.seq,
        agent: 'a',
        type: note ? 'note' : 'text',
        final: final || note,
        delta: final ? '' : note ? frame.data : `${frame.data}\n`,
        extras: {},
      });
      // Its own terminal event, declared so the session's end status is "done".
      if (final) callbacks.onStreamEnd?.({ event: 'end' });
    },
    end() {},
  }),
  syntax: 'json',
  terminator: 'dialect',
  blocksWithoutStart: true,
  blockKinds: { note: { label: 'Note', inline: 'parse' } },
  // Where the bytes say nothing, its endpoint and its header do (docs/dialects.md, "Evidence beyond the bytes").
  evidence: { urlPaths: ['/v1/lines'], headers: [{ name: 'x-lines-stream', value: 'v1' }] },
};

/** Its fuzz grammar, as its folder's fuzz.ts would export it: lines, notes and ends, framed by `event:`. */
const linesGrammar: FuzzDialect = {
  event: (random) => jsonText({ type: pick(random, ['line', 'line', 'note', 'end']), text: text(random) }),
  framing: { eventField: true, sequenceNumbers: false },
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

  it('is unknown to the built-in registry, which shows its events as generic JSON events', () => {
    expect(decodeBytes(encodeUtf8(stream)).formats).toEqual(['json-events']);
  });

  it('declares its evidence in its module: its URL or header decides a leg whose events it does not claim', () => {
    const unnamed = 'data: first\n\ndata: second\n\n';
    const decode = (hints: ExchangeHints) => {
      const session = createCollectingSession({ dialects: registry });
      session.decodeLeg([{ bytes: encodeUtf8(unnamed) }], hints);
      return session.finish().detections;
    };
    expect(decode({ url: 'http://127.0.0.1:9/v1/lines?stream=1' })).toEqual([{ by: 'url', detail: '/v1/lines' }]);
    expect(decode({ url: 'http://127.0.0.1:9/feed', headers: [['X-Lines-Stream', 'V1']] })).toEqual([
      { by: 'header', detail: 'x-lines-stream: v1' },
    ]);
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

describe('what the dialect declares of its blocks', () => {
  const tagged = 'event: line\ndata: first\n\nevent: note\ndata: Plan <thinking>hmm</thinking> done\n\n';

  it('a kind of its own is parsed by the in-text stage and labelled, where the registry has it', () => {
    expect(inlineTreatments(registry).get('note')).toBe('parse');
    expect(blockKindLabels(registry).get('note')).toBe('Note');
    const note = decodeBytes(encodeUtf8(tagged), { dialects: registry }).blocks.find((b) => b.kind === 'note');
    expect(note?.segments?.map((s) => [s.type, s.content])).toEqual([
      ['text', 'Plan '],
      ['reasoning', 'hmm'],
      ['text', ' done'],
    ]);
    const undeclared = createDialectRegistry([...DIALECTS, { ...linesDialect, blockKinds: {} }], 'json');
    const plain = decodeBytes(encodeUtf8(tagged), { dialects: undeclared }).blocks.find((b) => b.kind === 'note');
    expect(plain?.segments).toBeUndefined();
  });

  it('blocks without a start event: a text block interrupted by another kind and streaming on is closed and reported', () => {
    const interrupted =
      'event: line\ndata: first\n\nevent: note\ndata: aside\n\nevent: line\ndata: second\n\nevent: end\ndata: \n\n';
    const result = decodeBytes(encodeUtf8(interrupted), { dialects: registry });
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['text', 'first\n'],
      ['note', 'aside'],
      ['text', 'second\n'],
    ]);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['block.not-finalised']);
    const started = createDialectRegistry([...DIALECTS, { ...linesDialect, blocksWithoutStart: false }], 'json');
    const merged = decodeBytes(encodeUtf8(interrupted), { dialects: started });
    expect(merged.blocks.map((b) => b.content)).toEqual(['first\nsecond\n', 'aside']);
    expect(merged.diagnostics.map((d) => d.rule)).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'dialect-plugin-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the diff reads the wire traits it declares, through the CLI's registry", async () => {
    const xmlLike = createDialectRegistry(
      [...DIALECTS, { ...linesDialect, attributesAgents: true, agentXmlItems: true, textAsXml: true }],
      'json',
    );
    const profile = diffSessions(decodeBytes(encodeUtf8(stream), { dialects: xmlLike }), decodeBytes(encodeUtf8('')), {
      dialects: xmlLike,
    }).left;
    expect(profile).toMatchObject({ dialects: ['lines'], attributesAgents: true, xmlItems: true, xmlText: true });

    const right = join(dir, 'right.sse');
    writeFileSync(right, stream);
    const io = { ...memoryIo(stream), dialects: registry };
    expect(await main(['diff', '-', right, '--json'], io)).toBe(0);
    const report = JSON.parse(io.out()) as { left: object; counts: { differences: number } };
    expect(report.left).toMatchObject({
      dialects: ['lines'],
      attributesAgents: false,
      xmlItems: false,
      xmlText: false,
    });
    expect(report.counts.differences).toBe(0);
  });
});

describe("the dialect's fuzz grammar", () => {
  const grammars = new Map<DialectModule, FuzzDialect>([[linesDialect, linesGrammar]]);

  it('is required: the fuzzer names a registered dialect without one', () => {
    expect(() => fuzzGrammarsOf([...DIALECTS, linesDialect])).toThrow(
      /dialect lines: no folder under src-shared\/dialects/,
    );
  });

  it('generates streams the test registry reads as the dialect', () => {
    const random = seededRandom(3);
    const formats = Array.from(
      { length: 10 },
      () => decodeBytes(generateStream(linesGrammar, random), { dialects: registry }).formats[0],
    );
    expect(formats.filter((f) => String(f) === 'lines').length).toBeGreaterThan(5);
  });

  it('takes its turn in a fuzz run over the registry, beside the built-in grammars found in their folders', () => {
    const report = runFuzz(
      {
        seed: 7,
        seeds: [],
        limits: { hugeLineBytes: 4096 },
        grammars: fuzzGrammarsOf(registry.modules, grammars),
        dialects: registry,
      },
      Number.POSITIVE_INFINITY,
      registry.ids.length,
    );
    expect(report.byDialect['lines']).toBe(1);
    expect(report.failures).toEqual([]);
  });
});
