import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import type { DialectId } from '../../../src-shared/dialects/registry';
import { blockEndFacts } from '../../../src-shared/pipeline/end-status';
import { decodeLegs, type ChunkInput } from '../../../src-shared/pipeline/session-decoder';
import type { DecodeResult } from '../../../src-shared/pipeline/types';
import { frameChunks } from '../../../src-shared/sse/collect';
import { splitRandom } from '../../../src-shared/testing/chunking';
import { generateFaults, type CleanStream } from '../../../src-shared/testing/faults';
import { encodeUtf8 } from '../../../src-shared/text/utf8';
import { listSseFixtures, readFixture } from '../../testing/fixtures';
import { openSource } from '../importers';
import { createCountingSession, FINDING_EXAMPLES, type CountedSession } from './counting-session';

function count(legs: readonly (readonly ChunkInput[])[]): CountedSession {
  const session = createCountingSession();
  for (const chunks of legs) {
    const leg = session.startLeg();
    for (const chunk of chunks) leg.push(chunk.bytes, chunk.receivedAt);
    leg.end();
  }
  return session.finish();
}

/** Everything the counting sink reports, computed from the full decoder's result. */
function expected(full: DecodeResult) {
  const envelopeTypes: Record<string, number> = {};
  for (const e of full.envelopes) envelopeTypes[e.type] = (envelopeTypes[e.type] ?? 0) + 1;
  const rules = [...new Set(full.diagnostics.map((d) => d.rule))];
  return {
    legs: full.ends.map((end, i) => ({
      format: full.formats[i],
      detection: full.detections[i],
      lastEventId: end.lastEventId,
      retry: end.retry,
      bytes: end.bytes,
      stream: end.stream,
      framing: end.framing,
    })),
    frames: full.frames.reduce((sum, frames) => sum + frames.length, 0),
    envelopes: full.envelopes.length,
    envelopeTypes,
    blocks: full.blocks.length,
    agents: full.agents.length,
    severities: {
      error: full.diagnostics.filter((d) => d.severity === 'error').length,
      warning: full.diagnostics.filter((d) => d.severity === 'warning').length,
      info: full.diagnostics.filter((d) => d.severity === 'info').length,
    },
    findings: rules.map((rule) => {
      const all = full.diagnostics.filter((d) => d.rule === rule);
      return { rule, severity: all[0]!.severity, count: all.length, examples: all.slice(0, FINDING_EXAMPLES) };
    }),
    blockFacts: blockEndFacts(full.blocks, full.ends.length - 1),
  };
}

function networkChunks(bytes: Uint8Array, seed: number): ChunkInput[] {
  return splitRandom(bytes, seed, 4096).map((piece) => ({ bytes: piece }));
}

describe('the counting sink', () => {
  it.each(listSseFixtures())('counts %s as the full decoder does (random network chunks)', (name) => {
    const bytes = readFixture(name);
    const full = decodeLegs([[{ bytes }]]);
    expect(count([networkChunks(bytes, 7)])).toEqual(expected(full));
  });

  it.each(['frontend-tool.recording', 'multi-agent.recording', 'truncated.recording', 'tour.xml.recording'])(
    'counts every leg of the sample %s as the full decoder does',
    async (name) => {
      const source = await openSource(new URL(`../../../resources/samples/${name}`, import.meta.url).pathname);
      const legs: ChunkInput[][] = [];
      for (const leg of source.legs) {
        const chunks: ChunkInput[] = [];
        for await (const chunk of leg.chunks) chunks.push(chunk);
        legs.push(chunks);
      }
      expect(count(legs)).toEqual(expected(decodeLegs(legs)));
    },
  );

  // Faulted streams end in every way a block can: replayed, abandoned, left open, cut; a block
  // releases its content once closed, and none of that may change a finding or the end status.
  const clean: Record<'json' | 'xml' | 'raw', string[]> = {
    json: ['frontend_tools.json.sse', 'multi_agent.json.sse', 'probe_citations.json.sse'],
    xml: ['json_stream.xml.sse', 'probe_citations.xml.sse'],
    raw: ['json_stream.raw.sse', 'frontend_tools.raw.sse'],
  };
  const streams: CleanStream[] = (Object.entries(clean) as [DialectId, string[]][]).flatMap(([dialect, names]) =>
    names.map((name) => ({
      name,
      dialect,
      events: frameChunks([readFixture(name)], { maxDataLineBytes: Number.MAX_SAFE_INTEGER }).frames.map((f) => f.data),
    })),
  );
  const faults = generateFaults(streams, 14, 1);

  it(`counts ${faults.length} faulted upstream streams as the full decoder does`, () => {
    expect(new Set(faults.map((f) => f.kind.rule))).toContain('block.restarted');
    for (const fault of faults) {
      const bytes = concatBytes(fault.faulted.parts.map((p) => (typeof p === 'string' ? encodeUtf8(p) : p)));
      expect(count([networkChunks(bytes, 3)]), `${fault.kind.name} in ${fault.stream}`).toEqual(
        expected(decodeLegs([[{ bytes }]])),
      );
    }
  });

  it(`keeps ${FINDING_EXAMPLES} examples of a rule found many times, and counts them all`, () => {
    const event = (n: number): string => `data: {"type":"text","agent":"a","final":false,"delta":"${n}"}\n\n`;
    const bytes = encodeUtf8(Array.from({ length: 40 }, (_, n) => `${event(n)}data: [DONE]\n\n`).join(''));
    const counted = count([[{ bytes }]]);
    const afterDone = counted.findings.find((f) => f.rule === 'stream.after-done');
    expect(afterDone?.count).toBe(78);
    expect(afterDone?.examples.map((d) => d.at.frame)).toEqual([2, 3, 4, 5, 6]);
  });

  it('reports a block left open with its whole length while the closed one before it is let go', () => {
    const session = createCountingSession();
    const leg = session.startLeg();
    const text = 'x'.repeat(1000);
    leg.push(
      encodeUtf8(
        `data: {"type":"text","agent":"a","final":false,"delta":"${text}"}\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\n`,
      ),
    );
    leg.push(encodeUtf8(`data: {"type":"thinking","agent":"a","final":false,"delta":"${text}"}\n\n`));
    leg.push(encodeUtf8(`data: {"type":"thinking","agent":"a","final":false,"delta":"more"}\n\n`));
    leg.end();
    const counted = session.finish();
    expect(counted.blockFacts.openBlocks).toEqual([{ id: 1, kind: 'thinking' }]);
    const unterminated = counted.findings.find((f) => f.rule === 'block.unterminated');
    expect(unterminated?.examples[0]?.message).toContain(`${text.length + 4} characters`);
  });
});
