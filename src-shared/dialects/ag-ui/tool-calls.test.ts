import { describe, expect, it } from 'vitest';
import { agUi, decodeAgUi, inRun, rulesOf } from './test-events';

const start = (toolCallId: string, toolCallName = 'search') => agUi('TOOL_CALL_START', { toolCallId, toolCallName });
const args = (toolCallId: string, delta: string) => agUi('TOOL_CALL_ARGS', { toolCallId, delta });
const end = (toolCallId: string) => agUi('TOOL_CALL_END', { toolCallId });
const result = (toolCallId: string, content: unknown) =>
  agUi('TOOL_CALL_RESULT', { messageId: `res-${toolCallId}`, toolCallId, content });
const calls = (events: string[]) =>
  decodeAgUi(events)
    .blocks.filter((b) => b.kind === 'tool_call')
    .map((b) => [b.toolId, b.name, b.parsed]);

describe('tool calls', () => {
  it('parallel calls by toolCallId: their arguments interleave, each becomes one call with parsed input', () => {
    expect(
      calls(
        inRun(
          start('a'),
          start('b', 'fetch'),
          args('a', '{"q":'),
          args('b', '{"url":"x"}'),
          args('a', '"cats"}'),
          end('b'),
          end('a'),
        ),
      ),
    ).toEqual([
      ['b', 'fetch', { url: 'x' }],
      ['a', 'search', { q: 'cats' }],
    ]);
  });

  it('a result links to its call; content given as parts is kept as their JSON', () => {
    const decoded = decodeAgUi(
      inRun(start('a'), args('a', '{}'), end('a'), result('a', [{ type: 'text', text: 'found' }])),
    );
    const call = decoded.blocks.find((b) => b.kind === 'tool_call');
    const answer = decoded.blocks.find((b) => b.kind === 'tool_result');
    expect(answer).toMatchObject({ toolId: 'a', name: 'search', content: '[{"type":"text","text":"found"}]' });
    expect(answer?.linkedBlock).toBe(call?.id);
    expect(rulesOf(decoded)).toEqual([]);
  });

  it('chunks: the first carries id and name, later ones arguments; the next event ends the call', () => {
    const decoded = decodeAgUi(
      inRun(
        agUi('TOOL_CALL_CHUNK', { toolCallId: 'c', toolCallName: 'get_weather', delta: '{"city":' }),
        agUi('TOOL_CALL_CHUNK', { delta: '"Paris"}' }),
        agUi('TOOL_CALL_CHUNK', { toolCallId: 'd', toolCallName: 'get_time', delta: '{}' }),
        result('c', 'sunny'),
        result('d', 'noon'),
      ),
    );
    expect(decoded.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolId, b.name, b.parsed])).toEqual([
      ['c', 'get_weather', { city: 'Paris' }],
      ['d', 'get_time', {}],
    ]);
    expect(rulesOf(decoded)).toEqual([]);
  });
});

describe('provider.tool-args-invalid (AG-UI)', () => {
  it('fires at TOOL_CALL_END when the joined arguments do not parse; the call keeps the text', () => {
    const decoded = decodeAgUi(inRun(start('a'), args('a', '{"q": "cats"'), end('a'), result('a', 'x')));
    // Once: reconstruction's envelope.payload-json is the upstream formats' rule, not AG-UI's.
    expect(rulesOf(decoded)).toEqual(['provider.tool-args-invalid']);
    expect(decoded.diagnostics[0]?.at.frame).toBe(3);
    expect(decoded.blocks.find((b) => b.kind === 'tool_call')?.content).toBe('{"q": "cats"');
  });

  it('does not fire for arguments that parse, nor for a call with none', () => {
    expect(
      rulesOf(
        decodeAgUi(
          inRun(start('a'), args('a', '{"q":1}'), end('a'), start('b'), end('b'), result('a', ''), result('b', '')),
        ),
      ),
    ).toEqual([]);
  });
});

describe('provider.block-not-started, block-started-twice, delta-after-stop, block-not-stopped (AG-UI calls)', () => {
  it('arguments for a call never started are kept in a call of their own, reported once', () => {
    const decoded = decodeAgUi(inRun(args('ghost', '{"a":1}'), end('ghost'), result('ghost', 'ok')));
    expect(rulesOf(decoded)).toEqual(['provider.block-not-started']);
    expect(decoded.blocks.find((b) => b.kind === 'tool_call')).toMatchObject({ toolId: 'ghost', parsed: { a: 1 } });
  });

  it('a start without toolCallId, a first chunk without toolCallName, an end for no open call', () => {
    const decoded = decodeAgUi(
      inRun(
        agUi('TOOL_CALL_START', { toolCallName: 'x' }),
        agUi('TOOL_CALL_CHUNK', { toolCallId: 'c', delta: '{}' }),
        end('nobody'),
        result('c', ''),
      ),
    );
    expect(rulesOf(decoded)).toEqual([
      'provider.block-not-started',
      'provider.block-not-started',
      'provider.block-not-started',
    ]);
  });

  it('a call started twice, arguments after its end, and a call open at RUN_FINISHED', () => {
    const decoded = decodeAgUi(
      inRun(
        start('a'),
        start('a'),
        args('a', '{}'),
        end('a'),
        args('a', '{}'),
        end('a'),
        result('a', ''),
        start('b'),
        args('b', '{}'),
      ),
    );
    expect(rulesOf(decoded)).toEqual([
      'provider.block-started-twice',
      'provider.delta-after-stop',
      'provider.block-not-stopped',
      // The call open at RUN_FINISHED is one the run awaits from the frontend, not one without result.
      'tool.call-without-result',
    ]);
    // The late arguments are a call of their own, which leaves the ended call's id (and result) to it.
    expect(decoded.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolId, b.content])).toEqual([
      ['a', '{}'],
      [undefined, '{}'],
      ['b', '{}'],
    ]);
  });

  it('a call reopened by a new start (the specification allows it) goes on with its arguments, in a block of its own', () => {
    const decoded = decodeAgUi(
      inRun(start('a'), args('a', '{"q":'), end('a'), start('a'), args('a', '"x"}'), end('a'), result('a', 'ok')),
    );
    expect(decoded.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.content)).toEqual(['{"q":', '{"q":"x"}']);
    // Its first END closed arguments that did not parse yet; the reopened block holds them whole.
    expect(rulesOf(decoded)).toEqual(['provider.tool-args-invalid', 'tool.call-without-result']);
  });

  it("a MESSAGES_SNAPSHOT's tool message answers a call of this run no TOOL_CALL_RESULT answered: its result, once", () => {
    const snapshot = (...ids: string[]) =>
      agUi('MESSAGES_SNAPSHOT', {
        messages: [
          { id: 'u1', role: 'user', content: 'What time is it?' },
          ...ids.map((id) => ({ id: `t-${id}`, role: 'tool', toolCallId: id, content: `answer ${id}` })),
        ],
      });
    // `old` answers a call of an earlier run (not in this stream): the snapshot's history, no result here.
    const decoded = decodeAgUi(
      inRun(
        start('a'),
        args('a', '{}'),
        end('a'),
        snapshot('old', 'a'),
        snapshot('old', 'a'),
        agUi('TEXT_MESSAGE_START', { messageId: 'm', role: 'assistant' }),
        agUi('TEXT_MESSAGE_END', { messageId: 'm' }),
      ),
    );
    expect(rulesOf(decoded)).toEqual([]);
    const results = decoded.blocks.filter((b) => b.kind === 'tool_result');
    expect(results.map((b) => [b.toolId, b.name, b.content])).toEqual([['a', 'search', 'answer a']]);
    expect(decoded.blocks.find((b) => b.kind === 'tool_call')?.linkedBlock).toBe(results[0]?.id);
    // A TOOL_CALL_RESULT came first: the snapshot repeats it, nothing more.
    const streamed = decodeAgUi(inRun(start('a'), end('a'), result('a', 'streamed'), snapshot('a')));
    expect(streamed.blocks.filter((b) => b.kind === 'tool_result').map((b) => b.content)).toEqual(['streamed']);
  });

  it('a TOOL_CALL_RESULT without content is reported; a result field sent instead is shown as the result', () => {
    const noContent = (fields: Record<string, unknown>) =>
      decodeAgUi(inRun(start('a'), end('a'), agUi('TOOL_CALL_RESULT', { toolCallId: 'a', ...fields })));
    const instead = noContent({ result: '2026-02-06 01:57:27' });
    expect(rulesOf(instead)).toEqual(['provider.invalid-event']);
    expect(instead.diagnostics[0]?.message).toContain('its result field is shown as the result');
    expect(instead.blocks.find((b) => b.kind === 'tool_result')?.content).toBe('2026-02-06 01:57:27');
    const empty = noContent({});
    expect(rulesOf(empty)).toEqual(['provider.invalid-event']);
    expect(empty.diagnostics[0]?.message).toContain('the result is empty');
    // must not: a content that is an empty string is a content.
    expect(rulesOf(noContent({ content: '' }))).toEqual([]);
  });
});
