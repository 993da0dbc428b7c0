import { describe, expect, it } from 'vitest';
import { agUi, decodeAgUi, endLabel, endOf, inRun, RUN, rulesOf } from './test-events';

const text = (messageId: string, delta: string): string[] => [
  agUi('TEXT_MESSAGE_START', { messageId, role: 'assistant' }),
  agUi('TEXT_MESSAGE_CONTENT', { messageId, delta }),
  agUi('TEXT_MESSAGE_END', { messageId }),
];
const run2 = { threadId: 'thread-1', runId: 'run-2' };

describe('ag-ui.run-error', () => {
  it('fires for RUN_ERROR, which ends the session by error with an error block and a failed run', () => {
    const result = decodeAgUi([
      agUi('RUN_STARTED', RUN),
      ...text('m1', 'Partial'),
      agUi('RUN_ERROR', { message: 'Rate limited', code: 'rate_limit' }),
    ]);
    expect(rulesOf(result)).toEqual(['ag-ui.run-error']);
    expect(result.diagnostics[0]?.severity).toBe('error');
    expect(result.diagnostics[0]?.message).toContain('(rate_limit)');
    expect(endLabel(result)).toBe('ended by error');
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'failed',
      error: { message: 'Rate limited', code: 'rate_limit' },
    });
  });

  it('fires for a RUN_ERROR that opens the stream, and for a late one after RUN_FINISHED; neither is outside a run', () => {
    expect(rulesOf(decodeAgUi([agUi('RUN_ERROR', { message: 'No agent' })]))).toEqual(['ag-ui.run-error']);
    const late = decodeAgUi([...inRun(...text('m1', 'Hi')), agUi('RUN_ERROR', { message: 'flush failed' })]);
    expect(rulesOf(late)).toEqual(['ag-ui.run-error']);
    expect(late.diagnostics[0]?.message).toContain('after it had finished');
    expect(endLabel(late)).toBe('ended by error');
  });

  it('does not fire for a run that finishes', () => {
    const result = decodeAgUi(inRun(...text('m1', 'Hello')));
    expect(rulesOf(result)).toEqual([]);
    expect(endLabel(result)).toBe('done');
  });
});

describe('ag-ui.event-outside-run', () => {
  it('fires once per stretch for events after the run finished, and the events are still decoded', () => {
    const result = decodeAgUi([...inRun(), ...text('late', 'kept')]);
    expect(rulesOf(result)).toEqual(['ag-ui.event-outside-run']);
    expect(result.diagnostics[0]?.at.frame).toBe(2);
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('kept');
    // A client fails the run on the stray event: the stream ends by that error, not "truncated"
    // by the text block it opened, nor "done" as the run had.
    expect(endLabel(result)).toBe('ended by error');
    expect(endOf(result).reason).toBe(
      'The stream ended with an error in event 2: TEXT_MESSAGE_START came after RUN_FINISHED closed run run-1 in event 1, and a client fails the run on it',
    );
    const custom = decodeAgUi([...inRun(), agUi('CUSTOM', { name: 'late', value: 1 })]);
    expect(endLabel(custom)).toBe('ended by error');
  });

  it('fires for events before any RUN_STARTED, and for anything but RUN_STARTED after RUN_ERROR', () => {
    const early = decodeAgUi([agUi('CUSTOM', { name: 'early', value: 1 }), ...inRun()]);
    expect(rulesOf(early)).toEqual(['ag-ui.event-outside-run']);
    // A capture that begins inside a run is common: a finding, not the stream's end.
    expect(endLabel(early)).toBe('done');
    const afterError = decodeAgUi([
      agUi('RUN_STARTED', RUN),
      agUi('RUN_ERROR', { message: 'boom' }),
      agUi('RUN_ERROR', { message: 'again' }),
    ]);
    expect(rulesOf(afterError)).toEqual(['ag-ui.run-error', 'ag-ui.event-outside-run', 'ag-ui.run-error']);
    // After RUN_ERROR, a stray event leaves the run's own error as the stream's reason.
    const strayAfterError = decodeAgUi([
      agUi('RUN_STARTED', RUN),
      agUi('RUN_ERROR', { message: 'boom' }),
      agUi('CUSTOM', { name: 'late', value: 1 }),
    ]);
    expect(endOf(strayAfterError).reason).toBe('The stream ended with an error in event 1: RUN_ERROR: boom');
  });

  it('does not fire for a new run after the last one closed, whatever way it closed', () => {
    const result = decodeAgUi([
      agUi('RUN_STARTED', RUN),
      agUi('RUN_ERROR', { message: 'boom' }),
      agUi('RUN_STARTED', run2),
      ...text('m2', 'Recovered'),
      agUi('RUN_FINISHED', run2),
    ]);
    expect(rulesOf(result)).toEqual(['ag-ui.run-error', 'provider.next-message']);
  });
});

describe('ag-ui.unbalanced', () => {
  it('fires for a step finished that never started, one started twice, and a span left open at RUN_FINISHED', () => {
    const result = decodeAgUi(
      inRun(
        agUi('STEP_FINISHED', { stepName: 'plan' }),
        agUi('STEP_STARTED', { stepName: 'search' }),
        agUi('STEP_STARTED', { stepName: 'search' }),
        agUi('STEP_FINISHED', { stepName: 'search' }),
        agUi('REASONING_START', { messageId: 'r1' }),
      ),
    );
    expect(rulesOf(result)).toEqual(['ag-ui.unbalanced', 'ag-ui.unbalanced', 'ag-ui.unbalanced']);
    expect(result.diagnostics.map((d) => d.at.frame)).toEqual([1, 3, 5]);
  });

  it('does not fire for balanced steps, overlapping steps, or a span and a message that share an id', () => {
    const result = decodeAgUi(
      inRun(
        agUi('STEP_STARTED', { stepName: 'a' }),
        agUi('STEP_STARTED', { stepName: 'b' }),
        agUi('STEP_FINISHED', { stepName: 'a' }),
        agUi('REASONING_START', { messageId: 'r1' }),
        agUi('REASONING_MESSAGE_START', { messageId: 'r1', role: 'reasoning' }),
        agUi('REASONING_MESSAGE_CONTENT', { messageId: 'r1', delta: 'hmm' }),
        agUi('REASONING_MESSAGE_END', { messageId: 'r1' }),
        agUi('REASONING_END', { messageId: 'r1' }),
        agUi('STEP_FINISHED', { stepName: 'b' }),
        agUi('THINKING_START'),
        agUi('THINKING_END'),
      ),
    );
    expect(rulesOf(result)).toEqual([]);
  });
});

describe('how a stream of runs ends', () => {
  it('cut inside a run: provider.missing-terminal at the end, the run summed up as cut, truncated', () => {
    const result = decodeAgUi([agUi('RUN_STARTED', RUN), agUi('TEXT_MESSAGE_START', { messageId: 'm1' })]);
    expect(rulesOf(result)).toEqual(['provider.missing-terminal', 'provider.block-not-stopped', 'block.unterminated']);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ status: 'cut' });
    expect(endLabel(result)).toBe('truncated');
  });

  it('a RUN_STARTED while a run is open cuts that run short', () => {
    const result = decodeAgUi([agUi('RUN_STARTED', RUN), ...inRun().map((e) => e.replace('run-1', 'run-2'))]);
    expect(rulesOf(result)).toEqual(['provider.missing-terminal']);
    expect(result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed)).toMatchObject([
      { id: 'run-1', status: 'cut' },
      { id: 'run-2', status: 'completed' },
    ]);
    expect(endLabel(result)).toBe('done');
  });

  it('a RUN_FINISHED whose RUN_STARTED the capture lacks closes the run it implies', () => {
    const result = decodeAgUi([...text('m1', 'tail'), agUi('RUN_FINISHED', RUN)]);
    expect(rulesOf(result)).toEqual(['ag-ui.event-outside-run']);
    expect(endLabel(result)).toBe('done');
  });

  it('an outcome other than success is the run’s status and stop reason', () => {
    const result = decodeAgUi([
      agUi('RUN_STARTED', RUN),
      agUi('RUN_FINISHED', { ...RUN, outcome: { type: 'cancelled' } }),
    ]);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'cancelled',
      stop_reason: 'cancelled',
    });
  });
});

describe('RUN_ERROR', () => {
  it("without message, an error string in its place is the message, said so; with neither, 'no message given'", () => {
    const failed = (fields: Record<string, unknown>) =>
      decodeAgUi([agUi('RUN_STARTED', RUN), agUi('RUN_ERROR', { ...RUN, ...fields })]).diagnostics.map(
        (d) => d.message,
      );
    expect(failed({ error: 'content must be None, str, or list' })).toEqual([
      'Run run-1 ended with RUN_ERROR: content must be None, str, or list (in error, where the protocol names message)',
    ]);
    expect(failed({})).toEqual(['Run run-1 ended with RUN_ERROR: no message given']);
    expect(failed({ message: 'm', error: 'e' })).toEqual(['Run run-1 ended with RUN_ERROR: m']);
  });
});

describe('a run that finishes with calls no result answered waits for the frontend', () => {
  const call = (toolCallId: string, args: string): string[] => [
    agUi('TOOL_CALL_START', { toolCallId, toolCallName: 'user_confirm' }),
    agUi('TOOL_CALL_ARGS', { toolCallId, delta: args }),
    agUi('TOOL_CALL_END', { toolCallId }),
  ];
  const awaited = (events: string[]) =>
    decodeAgUi(events).blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.pendingTools;

  it('the calls without a result, in order, with their parsed input: the session awaits tools', () => {
    const events = inRun(
      ...call('c1', '{"message":"Sure?"}'),
      ...call('c2', '{}'),
      ...call('c3', '{}'),
      agUi('TOOL_CALL_RESULT', { messageId: 'r3', toolCallId: 'c3', content: 'done' }),
    );
    expect(awaited(events)).toEqual([
      { toolUseId: 'c1', name: 'user_confirm', input: { message: 'Sure?' } },
      { toolUseId: 'c2', name: 'user_confirm', input: {} },
    ]);
    expect(endLabel(decodeAgUi(events))).toBe('awaiting tools');
  });

  it('not when a MESSAGES_SNAPSHOT carries the tool message, a later run started, or the run failed', () => {
    const snapshot = agUi('MESSAGES_SNAPSHOT', {
      messages: [{ id: 't1', role: 'tool', toolCallId: 'c1', content: 'ok' }],
    });
    expect(awaited(inRun(...call('c1', '{}'), snapshot))).toBeUndefined();
    expect(
      awaited([...inRun(...call('c1', '{}')), ...inRun().map((e) => e.replace('run-1', 'run-2'))]),
    ).toBeUndefined();
    expect(
      awaited([agUi('RUN_STARTED', RUN), ...call('c1', '{}'), agUi('RUN_ERROR', { message: 'x' })]),
    ).toBeUndefined();
  });

  it('where RUN_STARTED echoes the input, only the calls of its tools: the agent runs its own', () => {
    const input = { ...RUN, messages: [], tools: [{ name: 'user_confirm', description: 'Asks', parameters: {} }] };
    const own = [
      agUi('TOOL_CALL_START', { toolCallId: 's1', toolCallName: 'search' }),
      agUi('TOOL_CALL_END', { toolCallId: 's1' }),
    ];
    const events = [agUi('RUN_STARTED', { ...RUN, input }), ...call('c1', '{}'), ...own, agUi('RUN_FINISHED', RUN)];
    expect(awaited(events)).toEqual([{ toolUseId: 'c1', name: 'user_confirm', input: {} }]);
    const none = [agUi('RUN_STARTED', { ...RUN, input: { ...input, tools: [] } }), ...own, agUi('RUN_FINISHED', RUN)];
    expect(awaited(none)).toBeUndefined();
    expect(endLabel(decodeAgUi(none))).toBe('done');
  });

  it('not in a run interrupted for a resume (outcome interrupt), unless the call is of a frontend tool', () => {
    const interrupt = { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'user_confirm' }] };
    const interrupted = [
      agUi('RUN_STARTED', RUN),
      ...call('c1', '{}'),
      agUi('RUN_FINISHED', { ...RUN, outcome: interrupt }),
    ];
    expect(awaited(interrupted)).toBeUndefined();
    const result = decodeAgUi(interrupted);
    expect(endLabel(result)).toBe('done');
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'interrupted',
      interrupts: interrupt.interrupts,
    });
    // The draft's bare string outcome is read the same, its one `interrupt` beside it.
    const draft = [
      ...interrupted.slice(0, -1),
      agUi('RUN_FINISHED', { ...RUN, outcome: 'interrupt', interrupt: { id: 'i2' } }),
    ];
    expect(awaited(draft)).toBeUndefined();
    expect(decodeAgUi(draft).blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      interrupts: [{ id: 'i2' }],
    });
    const input = { ...RUN, tools: [{ name: 'user_confirm' }] };
    expect(awaited([agUi('RUN_STARTED', { ...RUN, input }), ...interrupted.slice(1)])?.map((t) => t.toolUseId)).toEqual(
      ['c1'],
    );
  });
  it('those a 1.0 success outcome names (pendingToolCallIds), over the input’s tools; none of a cancelled run', () => {
    const input = { ...RUN, tools: [{ name: 'user_confirm' }] };
    const two = [agUi('RUN_STARTED', { ...RUN, input }), ...call('c1', '{}'), ...call('c2', '{}')];
    const finished = (outcome: unknown) => [...two, agUi('RUN_FINISHED', { ...RUN, outcome })];
    const named = finished({ type: 'success', pendingToolCallIds: ['c2'] });
    expect(awaited(named)?.map((t) => t.toolUseId)).toEqual(['c2']);
    // c1 is the agent's own call then, left without a result (info), and no unknown id is named.
    expect(rulesOf(decodeAgUi(named))).toEqual(['tool.call-without-result']);
    expect(awaited(finished({ type: 'success' }))?.map((t) => t.toolUseId)).toEqual(['c1', 'c2']);
    const cancelled = finished({ type: 'cancelled' });
    expect(awaited(cancelled)).toBeUndefined();
    expect(endLabel(decodeAgUi(cancelled))).toBe('done');
  });
});

describe('ag-ui.pending-call-unknown', () => {
  const started = [
    agUi('RUN_STARTED', RUN),
    agUi('TOOL_CALL_START', { toolCallId: 'c1', toolCallName: 'user_confirm' }),
    agUi('TOOL_CALL_END', { toolCallId: 'c1' }),
  ];
  const finish = (pendingToolCallIds: string[]) =>
    decodeAgUi([...started, agUi('RUN_FINISHED', { ...RUN, outcome: { type: 'success', pendingToolCallIds } })]);

  it('fires for an id in pendingToolCallIds the run left no unanswered call of; the calls it names that are unanswered still wait', () => {
    const result = finish(['c1', 'ghost']);
    expect(rulesOf(result)).toEqual(['ag-ui.pending-call-unknown']);
    expect(result.diagnostics[0]?.message).toContain('names call "ghost" in pendingToolCallIds');
    expect(result.diagnostics[0]?.severity).toBe('warning');
    expect(
      result.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.pendingTools?.map((t) => t.toolUseId),
    ).toEqual(['c1']);
  });

  it('does not fire when every id it names is an unanswered call of the run, or it names none', () => {
    expect(rulesOf(finish(['c1']))).toEqual([]);
    const none = finish([]);
    expect(rulesOf(none)).toEqual(['tool.call-without-result']);
    expect(endLabel(none)).toBe('done');
  });
});
