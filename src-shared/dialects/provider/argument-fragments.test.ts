import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everyStreamFixture } from '../../../src-main/testing/fixtures';
import type { Envelope } from '../../envelope/types';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject, parseJson } from '../../json/values';
import { decodeBytes } from '../../pipeline/session-decoder';

/**
 * A tool call's argument text streams in wire events no block takes as they come (Anthropic's
 * input_json_delta, OpenAI's function_call_arguments.delta and tool_calls fragments, AG-UI's
 * TOOL_CALL_ARGS, the AI SDK's tool-input-delta): each such provider event carries its
 * fragment as its delta, so its timeline row shows it and filters find it, and the fragments
 * of a call join to the arguments its tool_call envelope carries.
 */

const CALL_KINDS: ReadonlySet<string> = new Set([KIND.tool_call, KIND.server_tool_call]);
const FRAGMENT_FAMILIES: ReadonlySet<string> = new Set(['stream.tool_call_input.delta', 'stream.tool_call_start']);

/** The call a provider event's fragment belongs to: its unified ids, or (Anthropic raw, no unified events) the block it streams into. */
function callOf(envelope: Envelope, rawBlocks: Map<unknown, string>): string | undefined {
  if (envelope.unified) {
    if (!FRAGMENT_FAMILIES.has(envelope.unified.family)) return undefined;
    return envelope.unified.ids.tool_call_id;
  }
  const extras = envelope.extras as { index?: unknown; content_block?: { id?: unknown } };
  if (envelope.type === 'content_block_start' && typeof extras.content_block?.id === 'string')
    rawBlocks.set(extras.index, extras.content_block.id);
  return envelope.type === 'content_block_delta' ? rawBlocks.get(extras.index) : undefined;
}

function argumentFragments(envelopes: readonly Envelope[]): { calls: number; mismatches: string[] } {
  const fragments = new Map<string, string[]>();
  const rawBlocks = new Map<unknown, string>();
  let calls = 0;
  const mismatches: string[] = [];
  for (const envelope of envelopes) {
    if (envelope.control === 'provider-event') {
      const call = callOf(envelope, rawBlocks);
      if (call !== undefined && envelope.delta !== '')
        fragments.set(call, [...(fragments.get(call) ?? []), envelope.delta]);
      continue;
    }
    const id = envelope.extras['id'];
    if (!CALL_KINDS.has(envelope.type) || typeof id !== 'string' || !fragments.has(id)) continue;
    calls++;
    const joined = (fragments.get(id) as string[]).join('');
    fragments.delete(id);
    const streamed = parseJson(joined);
    const carried = parseJson(envelope.delta);
    // OpenAI's MCP call (a server tool's) carries its arguments inside a summary of the call.
    const summary = carried.ok && envelope.type === KIND.server_tool_call ? carried.value : undefined;
    const inSummary = isJsonObject(summary) ? JSON.stringify(summary['arguments']) : undefined;
    const streamedText = streamed.ok ? JSON.stringify(streamed.value) : undefined;
    // Fragments that do not join to JSON (a call the model broke off) are the call's input as written.
    if (
      streamedText === undefined
        ? joined !== envelope.delta
        : streamedText !== (carried.ok ? JSON.stringify(carried.value) : undefined) && streamedText !== inSummary
    )
      mismatches.push(`call ${id}: fragments ${JSON.stringify(joined)}, call ${JSON.stringify(envelope.delta)}`);
  }
  return { calls, mismatches };
}

describe('tool call argument fragments', () => {
  it("show each fragment as its event's delta, and join to the arguments of the call, in every fixture", () => {
    const byDialect = new Map<string, number>();
    const mismatches: string[] = [];
    for (const path of everyStreamFixture()) {
      const result = decodeBytes(new Uint8Array(readFileSync(path)));
      const found = argumentFragments(result.envelopes);
      const dialect = result.envelopes[0]?.dialect ?? 'none';
      byDialect.set(dialect, (byDialect.get(dialect) ?? 0) + found.calls);
      for (const m of found.mismatches) mismatches.push(`${relative(process.cwd(), path)}: ${m}`);
    }
    expect(mismatches).toEqual([]);
    // Streamed arguments are checked in every dialect that streams them.
    for (const dialect of ['anthropic-messages', 'raw', 'openai-responses', 'openai-chat', 'ag-ui', 'ai-sdk-ui'])
      expect(byDialect.get(dialect) ?? 0, dialect).toBeGreaterThan(0);
  });
});
