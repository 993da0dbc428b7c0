import { describe, expect, test } from 'vitest';
import type { DiagnosticInit } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import { createBlock } from './new-block';
import type { Retention } from './retention';
import { createToolLinks } from './tool-links';
import type { Block } from './types';
import { pushEnvelope } from './envelope-list';

function envelope(type: string, seq: number, extras: Record<string, unknown>, leg = 0): Envelope {
  return {
    frame: seq,
    agent: 'a',
    type,
    final: false,
    delta: '',
    extras,
    seq,
    leg,
    dialect: 'json',
    byteStart: seq * 10,
    byteEnd: seq * 10 + 10,
    receivedAt: 0,
  };
}

function links(retention: Retention = 'all') {
  const diagnostics: DiagnosticInit[] = [];
  const changes: number[] = [];
  const tools = createToolLinks(
    retention,
    (rule, message, at) => diagnostics.push({ rule, message, at }),
    (block) => changes.push(block.id),
  );
  let id = 0;
  const block = (
    type: string,
    seq: number,
    extras: Record<string, unknown>,
    leg = 0,
  ): { block: Block; envelope: Envelope } => {
    const env = envelope(type, seq, extras, leg);
    const made = createBlock(id++, env, type);
    pushEnvelope(made, seq);
    return { block: made, envelope: env };
  };
  return { tools, diagnostics, changes, block };
}

describe('tool call ↔ result links', () => {
  test('a result links to the first call with its id, both ways, and the call is reported changed', () => {
    const { tools, diagnostics, changes, block } = links();
    const call = block('tool_call', 0, { id: 't1', name: 'read' }).block;
    const second = block('tool_call', 1, { id: 't1', name: 'read' }).block;
    tools.addCall(call);
    tools.addCall(second);
    const result = block('tool_result', 2, { id: 't1' });
    tools.linkResult(result.block, result.envelope);
    expect([call.linkedBlock, result.block.linkedBlock, second.linkedBlock]).toEqual([
      result.block.id,
      call.id,
      undefined,
    ]);
    expect(changes).toEqual([call.id]);
    tools.reportUnanswered([call, second, result.block]);
    expect(diagnostics.map((d) => [d.rule, d.at.block])).toEqual([['tool.call-without-result', second.id]]);
  });

  test('a result without an id or with an unknown one is reported and left unlinked', () => {
    const { tools, diagnostics, block } = links();
    for (const extras of [{}, { id: 'nobody' }]) {
      const result = block('tool_result', 0, extras);
      tools.linkResult(result.block, result.envelope);
      expect(result.block.linkedBlock).toBeUndefined();
    }
    expect(diagnostics.map((d) => d.rule)).toEqual(['tool.result-without-call', 'tool.result-without-call']);
    expect(diagnostics[0]?.message).toContain('carries no id');
    expect(diagnostics[1]?.message).toContain('has id nobody');
  });

  test('only tool call kinds are remembered as calls', () => {
    const { tools, diagnostics, block } = links();
    tools.addCall(block('text', 0, { id: 't1' }).block);
    const result = block('tool_result', 1, { id: 't1' });
    tools.linkResult(result.block, result.envelope);
    expect(diagnostics.map((d) => d.rule)).toEqual(['tool.result-without-call']);
  });

  test('open retention: a linked call let go still links a repeated result by its id', () => {
    const { tools, diagnostics, block } = links('open');
    const call = block('tool_call', 0, { id: 't1' }).block;
    tools.addCall(call);
    const first = block('tool_result', 1, { id: 't1' });
    tools.linkResult(first.block, first.envelope);
    tools.letGo(call);
    const again = block('tool_result', 2, { id: 't1' });
    tools.linkResult(again.block, again.envelope);
    expect(again.block.linkedBlock).toBe(call.id);
    expect(diagnostics).toEqual([]);
  });

  test('a call the run paused for is awaited, never reported without result, whether a continuation ran or not', () => {
    const { tools, diagnostics, block } = links();
    const waiting = block('tool_call', 0, { id: 'p1', name: 'ask' }).block;
    tools.addCall(waiting);
    tools.awaited([{ toolUseId: 'p1', name: 'ask', input: {} }]);
    const other = block('tool_call', 1, { id: 'c2', name: 'search' }).block;
    tools.addCall(other);
    tools.reportUnanswered([waiting, other]);
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('search')]);
  });

  test('a server tool call without result says when the server streams its results', () => {
    const { tools, diagnostics, block } = links();
    tools.reportUnanswered([block('server_tool_call', 0, { id: 's1' }).block]);
    expect(diagnostics[0]?.message).toContain('server_tool_result is only streamed when');
  });
});
