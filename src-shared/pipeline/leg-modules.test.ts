import { describe, expect, it } from 'vitest';
import { ruleDialects } from '../diagnostics/rules';
import type { DiagnosticInit } from '../diagnostics/types';
import { DIALECT_REGISTRY } from '../dialects/registry';
import type { Envelope } from '../envelope/types';
import { encodeUtf8 } from '../text/utf8';
import { DialectFindings } from './dialect-findings';
import { createGzipSignatureCheck } from './gzip-signature';
import { createLegDecoder } from './leg-decoder';
import type { LegContext, LegEnd } from './types';

const TEXT = 'data: {"type":"text","agent":"11111111-1111-4111-8111-111111111111","final":false,"delta":"hi"}\n\n';

const finding = (rule: DiagnosticInit['rule']): DiagnosticInit => ({ rule, message: rule, at: {} });

describe('DialectFindings', () => {
  it("scopes stream.missing-done to exactly the dialects whose streams end with [DONE] (the registry's terminator)", () => {
    const endWithDone = DIALECT_REGISTRY.modules.filter((m) => m.terminator === 'done-frame').map((m) => m.id);
    expect([...(ruleDialects('stream.missing-done') ?? [])].sort()).toEqual(endWithDone.sort());
  });

  it('holds a dialect-specific finding until the dialect is known, then reports it only where its rule applies', () => {
    const reported: string[] = [];
    const findings = new DialectFindings((d) => reported.push(d.rule));
    findings.add(finding('sse.oversize-line'));
    findings.add(finding('stream.after-done'));
    expect(reported).toEqual(['stream.after-done']);
    findings.decide('openai-responses');
    findings.flush();
    expect(reported).toEqual(['stream.after-done']);
    findings.add(finding('sse.oversize-line'));
    expect(reported).toEqual(['stream.after-done']);
  });

  it('reports held findings for an upstream dialect, and all of them when no dialect is ever decided', () => {
    const decided: string[] = [];
    const json = new DialectFindings((d) => decided.push(d.rule));
    json.add(finding('sse.oversize-line'));
    json.decide('json');
    json.flush();
    json.flush();
    expect(decided).toEqual(['sse.oversize-line']);
    const undecided: string[] = [];
    const none = new DialectFindings((d) => undecided.push(d.rule));
    none.add(finding('stream.missing-done'));
    none.flush();
    expect(undecided).toEqual(['stream.missing-done']);
  });
});

describe('createGzipSignatureCheck', () => {
  it('fires once for 1f 8b however the two bytes are chunked, and never for other bodies', () => {
    let fired = 0;
    const split = createGzipSignatureCheck(() => fired++);
    split.push(Uint8Array.of(0x1f));
    split.push(Uint8Array.of());
    split.push(Uint8Array.of(0x8b, 0x1f, 0x8b));
    expect(fired).toBe(1);
    for (const body of [Uint8Array.of(0x8b, 0x1f), Uint8Array.of(0x1f, 0x00, 0x8b), encodeUtf8('data: x\n\n')]) {
      const check = createGzipSignatureCheck(() => fired++);
      check.push(body);
    }
    expect(fired).toBe(1);
  });
});

describe('createLegDecoder', () => {
  /** A leg with a context that records what it hands its session. */
  function leg(overrides: Partial<LegContext> = {}): {
    context: LegContext;
    envelopes: Envelope[];
    findings: string[];
    ends: LegEnd[];
    reconstructed: number[];
  } {
    const envelopes: Envelope[] = [];
    const findings: string[] = [];
    const ends: LegEnd[] = [];
    const reconstructed: number[] = [];
    let seq = 10;
    const context: LegContext = {
      leg: 1,
      previousDialect: undefined,
      choice: 'auto',
      registry: DIALECT_REGISTRY,
      chunkBudget: 2048,
      maxDataLineBytes: 2048,
      stats: undefined,
      callbacks: { onEnvelope: (e) => envelopes.push(e) },
      report: (d) => findings.push(d.rule),
      rootAgent: () => 'root',
      nextEnvelopeSeq: () => seq++,
      reconstruct: (e) => reconstructed.push(e.seq),
      onLegEnd: (end) => ends.push(end),
      ...overrides,
    };
    return { context, envelopes, findings, ends, reconstructed };
  }

  it('numbers envelopes from the session, reconstructs each, and ends with [DONE] as its terminal', () => {
    const { context, envelopes, findings, ends, reconstructed } = leg();
    const decoder = createLegDecoder(context);
    decoder.push(encodeUtf8(`${TEXT}data: [DONE]\n\n`));
    const end = decoder.end();
    expect(envelopes.map((e) => [e.seq, e.leg, e.type])).toEqual([
      [10, 1, 'text'],
      [11, 1, '[DONE]'],
    ]);
    expect(reconstructed).toEqual([10, 11]);
    expect(end).toMatchObject({ format: 'json', stream: { terminal: { event: '[DONE]', frame: 1 }, error: null } });
    expect(ends).toEqual([end]);
    expect(findings).toEqual([]);
  });

  it('a cut stream is no terminal, and rejects a dialect it does not know', () => {
    const { context, findings } = leg();
    const decoder = createLegDecoder(context);
    decoder.push(encodeUtf8(TEXT));
    expect(decoder.end().stream.terminal).toBeNull();
    expect(findings).toEqual(['stream.missing-done']);
    expect(() => createLegDecoder(leg({ choice: 'nope' as LegContext['choice'] }).context)).toThrow(
      'unknown dialect nope',
    );
  });
});
