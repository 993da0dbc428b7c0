/**
 * Diagnostics that miss nothing: every fault of src-shared/testing/faults.ts, applied to the
 * clean upstream streams, must be reported under its rule at the event it broke, and the
 * clean streams themselves must give no error. The figures are in docs/reliability.md.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providerFixturePath, readFixture, readUnknownFixture } from '../../src-main/testing/fixtures';
import { concatBytes } from '../bytes/held-bytes';
import type { DialectId } from '../dialects/registry';
import { decodeBytes } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { frameChunks } from '../sse/collect';
import { FAULT_KINDS, generateFaults, type CleanStream, type Fault } from '../testing/faults';
import { encodeUtf8 } from '../text/utf8';
import { RULES, type RuleId } from './rules';

const CLEAN: Record<DialectId, string[]> = {
  json: [
    'json_stream.json.sse',
    'json_stream.agent_base.json.sse',
    'probe_citations.json.sse',
    'probe_escaping.json.sse',
    'frontend_tools.json.sse',
    'frontend_tools_chunked.json.sse',
    'multi_agent.json.sse',
    'example_1.json.sse',
  ],
  xml: ['json_stream.xml.sse', 'probe_citations.xml.sse', 'frontend_tools.xml.sse', 'example_1.xml.sse'],
  raw: ['json_stream.raw.sse', 'probe_citations.raw.sse', 'probe_escaping.raw.sse', 'frontend_tools.raw.sse'],
  'anthropic-messages': [
    'anthropic-messages/text-citations.sse',
    'anthropic-messages/tool-use.sse',
    'anthropic-messages/server-tools.sse',
    'anthropic-messages/stop-sequence.sse',
  ],
  'openai-responses': [
    'openai-responses/text-annotations.sse',
    'openai-responses/reasoning-function.sse',
    'openai-responses/builtin-tools.sse',
  ],
  segments: ['segment-events.sse'],
  'openai-chat': [
    'openai-chat/text.sse',
    'openai-chat/reasoning.sse',
    'openai-chat/parallel-tools.sse',
    'openai-chat/n-choices.sse',
  ],
  'ag-ui': ['ag-ui/text.sse', 'ag-ui/reasoning.sse', 'ag-ui/parallel-tools.sse', 'ag-ui/state.sse'],
  gemini: [
    'gemini/text.sse',
    'gemini/thinking.sse',
    'gemini/parallel-calls.sse',
    'gemini/code-execution.sse',
    'gemini/grounding.sse',
    'gemini/streamed-args.sse',
  ],
  // The fallback claims no field, block or terminal event: what breaks there is an object event's JSON.
  'json-events': ['ticks.sse', 'typed-events.sse'],
  'json-rpc': [
    'json-rpc/mcp-tools-call.sse',
    'json-rpc/mcp-tool-error.sse',
    'json-rpc/mcp-server-request.sse',
    'json-rpc/a2a-task.sse',
    'json-rpc/a2a-input-required.sse',
  ],
  'ai-sdk-ui': [
    'ai-sdk-ui/text.sse',
    'ai-sdk-ui/parallel-tools.sse',
    'ai-sdk-ui/sources-data.sse',
    'ai-sdk-ui/text.txt',
    'ai-sdk-ui/parallel-tools.txt',
  ],
  ollama: ['ollama/text.txt', 'ollama/thinking.txt', 'ollama/tool-call.txt', 'ollama/generate.txt'],
};

const PROVIDERS = new Set<DialectId>(['anthropic-messages', 'openai-responses', 'openai-chat']);
/** Dialects whose clean streams are the demo agent's provider fixtures (AG-UI's and Gemini's are data-only: no event: fields). */
const PROVIDER_FIXTURES = new Set<DialectId>([...PROVIDERS, 'json-rpc', 'ag-ui', 'gemini', 'ai-sdk-ui', 'ollama']);
/** Line-framed clean streams (the AI SDK's v4 data stream, Ollama's NDJSON): one event per line. */
const isLineFramed = (name: string): boolean => name.endsWith('.txt');

/** The segment-events fixtures live beside the inline protocol fixtures (resources/fixtures/inline). */
const INLINE_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../resources/fixtures/inline');

function readClean(dialect: DialectId, name: string): Uint8Array {
  if (dialect === 'segments') return new Uint8Array(readFileSync(join(INLINE_FIXTURES, name)));
  if (dialect === 'json-events') return readUnknownFixture(name);
  return PROVIDER_FIXTURES.has(dialect) ? new Uint8Array(readFileSync(providerFixturePath(name))) : readFixture(name);
}

const streams: CleanStream[] = (Object.entries(CLEAN) as [DialectId, string[]][]).flatMap(([dialect, names]) =>
  names.map((name) => ({
    name,
    dialect,
    events: isLineFramed(name)
      ? new TextDecoder().decode(readClean(dialect, name)).split('\n').slice(0, -1)
      : frameChunks([readClean(dialect, name)], { maxDataLineBytes: Number.MAX_SAFE_INTEGER }).frames.map(
          (f) => f.data,
        ),
    eventFields: PROVIDERS.has(dialect),
    lines: isLineFramed(name),
  })),
);

/** Whether `result` reports the fault's rule at the event the fault broke. */
function flagged(fault: Fault, result: DecodeResult, parts: Uint8Array[]): boolean {
  const { target, alternative } = fault.faulted;
  return (
    flaggedAt(fault, result, parts, target) ||
    (alternative !== undefined && flaggedAt(fault, result, parts, alternative))
  );
}

function flaggedAt(fault: Fault, result: DecodeResult, parts: Uint8Array[], target: number | 'end'): boolean {
  const total = parts.reduce((n, p) => n + p.length, 0);
  let start = total;
  let end = total;
  if (target !== 'end') {
    start = parts.slice(0, target).reduce((n, p) => n + p.length, 0);
    end = start + (parts[target]?.length ?? 0);
  }
  const frames = new Set(
    (result.frames[0] ?? []).filter((f) => f.byteStart < end && f.byteEnd > start).map((f) => f.seq),
  );
  return result.diagnostics.some((d) => {
    if (d.rule !== fault.kind.rule) return false;
    if (d.at.frame !== undefined && frames.has(d.at.frame)) return true;
    const { byteStart, byteEnd } = d.at;
    if (byteStart === undefined) return false;
    if (target === 'end' || start === total) return byteStart === total || byteEnd === total;
    return byteStart < end && (byteEnd ?? byteStart + 1) > start;
  });
}

const faults = generateFaults(streams, 20_261_125);

describe('faults derived from the rules', () => {
  const results = faults.map((fault) => {
    const parts = fault.faulted.parts.map((p) => (typeof p === 'string' ? encodeUtf8(p) : p));
    const result = decodeBytes(concatBytes(parts));
    return { fault, caught: flagged(fault, result, parts) };
  });
  const missed = results.filter((r) => !r.caught);

  test('the figures of docs/reliability.md', () => {
    expect({
      kinds: FAULT_KINDS.length,
      streams: streams.length,
      generated: results.length,
      missed: missed.length,
    }).toEqual({ kinds: 161, streams: 54, generated: 2027, missed: 0 });
  });

  test('every fault is flagged under its rule at the event it broke', () => {
    expect(
      missed.map((r) => `${r.fault.kind.rule} (${r.fault.kind.name}) in ${r.fault.stream} at event ${r.fault.site}`),
    ).toEqual([]);
  });

  test('every fault kind was generated', () => {
    const generated = new Set(faults.map((f) => f.kind));
    expect(FAULT_KINDS.filter((k) => !generated.has(k)).map((k) => k.name)).toEqual([]);
  });
});

/**
 * Rules that report a limit of the inspector, not a fault of the stream: a block past the
 * content held in memory (64 Mi characters) is a healthy stream, and a fault of that size
 * would not fit this suite; reconstructor.test.ts ("a block past the held-content cap") tests it.
 */
const INSPECTOR_LIMITS: ReadonlySet<RuleId> = new Set(['block.content-capped']);

test('every rule about streams has a fault', () => {
  const streamRules = (Object.keys(RULES) as RuleId[]).filter(
    (id) => RULES[id].layer !== 'recording' && !INSPECTOR_LIMITS.has(id),
  );
  const covered = new Set(FAULT_KINDS.map((k) => k.rule));
  expect(streamRules.filter((id) => !covered.has(id))).toEqual([]);
});

describe('clean streams give no error', () => {
  test.each(streams)('$name', (stream) => {
    const result = decodeBytes(readClean(stream.dialect, stream.name));
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual([]);
  });
});
