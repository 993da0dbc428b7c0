import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded, pauseOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';

/**
 * `streamGenerateContent` bodies sent without `alt=sse`, recorded by simonw/llm-gemini's suite
 * (resources/fixtures/external/llm-gemini, credited in resources/fixtures/external/README.md):
 * one JSON array whose elements the API pretty-prints and separates by `\n,\n`, as it sent them
 * (the cassettes keep them gzipped). Each is this dialect, the same at every chunking, ends as
 * its stream says, with no finding.
 */
interface Recorded {
  name: string;
  status: EndStatusKind;
  blocks: [kind: string, content: string][];
  /** The client calls: name, id (the part's own), parsed arguments. */
  calls?: [string, string, unknown][];
  message: Record<string, unknown>;
}

const RECORDED: readonly Recorded[] = [
  {
    // gemini-3-flash: a call with its own id and thought signature, then an empty text part and STOP.
    name: 'gemini-3-call.json-array.json',
    status: 'paused',
    blocks: [['tool_call', '{"type":"funny"}']],
    calls: [['pelican_name_generator', 'c9bjmkfz', { type: 'funny' }]],
    message: { model: 'gemini-3-flash-preview', stop_reason: 'STOP', usage: { input_tokens: 28, output_tokens: 267 } },
  },
  {
    // The answer once the call's result came back: text in two chunks, then an empty part and STOP.
    name: 'gemini-3-text.json-array.json',
    status: 'done',
    blocks: [['text', '5 times 3 is 15.']],
    message: { model: 'gemini-3-flash-preview', stop_reason: 'STOP', usage: { input_tokens: 121, output_tokens: 9 } },
  },
];

const NOT_CONTENT = new Set(['message', 'awaiting_frontend_tools']);

describe("recorded Gemini JSON arrays of llm-gemini's suite", () => {
  test.each(RECORDED)(
    '$name: gemini, $status, no finding, its blocks, calls and summary, the same at every chunking',
    (recorded) => {
      const bytes = readExternalFixture(`llm-gemini/${recorded.name}`);
      const { result, facts } = decodeRecorded(bytes);
      expect(facts).toEqual({ formats: ['gemini'], rules: [], status: recorded.status, chunkingsThatDiffer: [] });
      expect(result.blocks.filter((b) => !NOT_CONTENT.has(b.kind)).map((b) => [b.kind, b.content])).toEqual(
        recorded.blocks,
      );
      const calls = result.blocks.filter((b) => b.kind === 'tool_call');
      expect(calls.map((b) => [b.name, b.toolId, b.parsed])).toEqual(recorded.calls ?? []);
      expect(pauseOf(result)?.pendingTools?.map((t) => [t.name, t.toolUseId, t.input]) ?? []).toEqual(
        recorded.calls ?? [],
      );
      expect(result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed)).toMatchObject([recorded.message]);
    },
  );

  it("the pause sends the call back as the model's part, with its id and thought signature", () => {
    const bytes = readExternalFixture('llm-gemini/gemini-3-call.json-array.json');
    const [chunk] = JSON.parse(new TextDecoder().decode(bytes)) as { candidates: { content: unknown }[] }[];
    const content = (pauseOf(decodeBytes(bytes))?.parsed as { content?: unknown } | undefined)?.content;
    expect(content).toEqual(chunk?.candidates[0]?.content);
  });
});
