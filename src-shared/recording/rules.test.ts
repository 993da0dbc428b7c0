import { describe, expect, it } from 'vitest';
import type { RuleId } from '../diagnostics/rules';
import { encodeUtf8 } from '../text/utf8';
import { createImportDiagnostics } from './diagnostics';
import { createJsonArraySplitter } from './json-array-splitter';
import { createRecordingReader } from './reader';
import { createRecordingIndexer } from './recording-index';

/** One file that triggers each rule, and a near-identical one that must not. */

const HEADER = '{"format":"agent-stream-inspector-recording","version":1,"createdAt":"","t":0,"redacted":true}\n';
const LEG = '{"type":"leg","leg":0,"t":1,"request":{"method":"GET","url":"http://h/","headers":[],"body":null}}\n';
const CHUNK = '{"type":"chunk","leg":0,"t":2,"bytes":"ZGF0YTogeAoK"}\n';
const END = '{"type":"end","leg":0,"t":3,"reason":"done"}\n';

function recordingRules(text: string): RuleId[] {
  const diagnostics = createImportDiagnostics();
  const indexer = createRecordingIndexer(diagnostics.report);
  const reader = createRecordingReader({
    onRecord: (r, o, e) => indexer.add(r, o, e),
    onDiagnostic: diagnostics.report,
  });
  reader.push(encodeUtf8(text));
  reader.end();
  indexer.finish();
  return diagnostics.list.map((d) => d.rule);
}

function arrayRules(text: string, maxElementBytes?: number): RuleId[] {
  const diagnostics = createImportDiagnostics();
  const splitter = createJsonArraySplitter(
    { onElement: () => undefined, onDiagnostic: diagnostics.report },
    maxElementBytes ? { maxElementBytes } : {},
  );
  splitter.push(encodeUtf8(text));
  splitter.end();
  return diagnostics.list.map((d) => d.rule);
}

describe('recording and import rules', () => {
  it.each<[RuleId, () => RuleId[], () => RuleId[]]>([
    [
      'recording.torn-tail',
      () => recordingRules(HEADER + LEG + CHUNK + END.slice(0, 20)),
      () => recordingRules(HEADER + LEG + CHUNK + END.slice(0, -1)),
    ],
    [
      'recording.damaged-line',
      () => recordingRules(HEADER + LEG + CHUNK.replace('ZGF0', '%%%%') + END),
      () => recordingRules(HEADER + LEG + CHUNK + END),
    ],
    [
      'recording.unknown-record',
      () => recordingRules(HEADER + LEG + '{"type":"bookmark","t":2}\n' + END),
      () => recordingRules(HEADER + LEG + END),
    ],
    [
      'recording.inconsistent',
      () => recordingRules(HEADER + CHUNK + END),
      () => recordingRules(HEADER + LEG + CHUNK + END),
    ],
    [
      'recording.unfinished-leg',
      () => recordingRules(HEADER + LEG + CHUNK),
      () => recordingRules(HEADER + LEG + CHUNK + END),
    ],
    [
      'import.skipped-item',
      () => arrayRules(`["${'x'.repeat(64)}"]`, 32),
      () => arrayRules(`["${'x'.repeat(16)}"]`, 32),
    ],
    ['import.truncated', () => arrayRules('[{"a":1},{"b"'), () => arrayRules('[{"a":1},{"b":2}]')],
  ])('%s: triggered by its example, not by the clean variant', (rule, triggering, clean) => {
    expect(triggering()).toContain(rule);
    expect(clean()).not.toContain(rule);
  });
});
