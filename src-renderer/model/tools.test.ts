import { describe, expect, test } from 'vitest';
import type { PendingToolPayload, PendingTools, SendToolResultsRequest } from '../../src-shared/contract';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture, readFixtureText } from '../../src-main/testing/fixtures';
import { readProviderFixture } from '../../src-main/testing/provider-streams';
import { DIALECT_REGISTRY } from '../../src-shared/dialects/registry';
import type { ClientToolAnswer } from '../../src-shared/dialects/types';
import type { PendingTool } from '../../src-shared/reconstruct/types';
import {
  AUTO_ANSWER_STORAGE_KEY,
  buildRequest,
  createAutoAnswerer,
  createAutoAnswerStore,
  DEFAULT_AUTO_ANSWER,
  draftProblem,
  draftsFor,
  draftWarning,
  messageOf,
  parseSettings,
  pendingKey,
  planAutoAnswer,
  quickAnswers,
  draftsWithAnswers,
  isQuickAnswer,
  toResults,
  pausedRecordingNotice,
  waitedFor,
  withQuickAnswer,
  recordedAnswers,
  recordedAnswersAt,
  type AutoAnswerSettings,
  type KeyValueStorage,
} from './tools';

function pendingToolsOf(name: string): PendingToolPayload[] {
  const block = decodeBytes(readFixture(name)).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
  return (block?.pendingTools ?? []).map((t) => ({ toolUseId: t.toolUseId, name: t.name, input: t.input ?? null }));
}

function pendingSet(tools: PendingToolPayload[], answered: PendingTools['answered'] = 'no', leg = 0): PendingTools {
  return { leg, block: 4, agentUuid: 'a', tools, answered, defaultPath: '/agent/tool_results', defaultExtraBody: {} };
}

const request = (body: string) => ({ method: 'POST', url: 'http://x/agent/tool_results', headers: [], body });

describe.each([
  'frontend_tools.json.sse',
  'frontend_tools.xml.sse',
  'frontend_tools.raw.sse',
  'frontend_tools.agent_base.json.sse',
])('%s', (fixture) => {
  test('the pending user_confirm shows its message up front and answers yes/no', () => {
    const [draft] = draftsFor(pendingToolsOf(fixture));
    expect(draft).toMatchObject({
      name: 'user_confirm',
      toolUseId: 'toolu_synth_confirm',
      mode: 'text',
      content: '',
      isError: false,
    });
    expect(draft?.message).toBe('The product is 84 (over 50). Proceed with saving the report?');
    expect(quickAnswers({ name: 'user_confirm', approvalId: null, answerHint: null }).map((q) => q.content)).toEqual([
      'yes',
      'no',
    ]);
  });
});

describe('drafts', () => {
  test('messageOf only takes a non-empty string message', () => {
    expect(messageOf({ message: 'Proceed?' })).toBe('Proceed?');
    expect(messageOf({ message: '  ' })).toBeNull();
    expect(messageOf({ message: 3 })).toBeNull();
    expect(messageOf(['message'])).toBeNull();
    expect(messageOf(null)).toBeNull();
  });

  test('other tools get an ok quick answer', () => {
    expect(quickAnswers({ name: 'pick_color', approvalId: null, answerHint: null })).toEqual([
      { id: 'ok', label: 'OK', content: 'ok', isError: false },
    ]);
  });

  test('a call that takes one form of answer (a computer call: a screenshot) gets no quick answer, and keeps its hint', () => {
    const hint = 'a screenshot: its URL (https://…)';
    const [draft] = draftsFor([{ toolUseId: 'call_cu', name: 'computer', input: {}, answerHint: hint }]);
    expect(draft?.answerHint).toBe(hint);
    expect(quickAnswers({ name: 'computer', approvalId: null, answerHint: hint })).toEqual([]);
    // Nothing given is no screenshot: not sent (the API would refuse it), said as what to do.
    if (!draft) throw new Error('no draft');
    expect(draftProblem(draft)).toBe(`Give ${hint}.`);
    expect(draftWarning(draft)).toBeNull();
    expect(draftProblem({ ...draft, content: 'https://example.test/shot.png' })).toBeNull();
  });

  test('JSON mode needs valid JSON; an empty text is sent but flagged', () => {
    const [draft] = draftsFor([{ toolUseId: 't1', name: 'x', input: {} }]);
    if (!draft) throw new Error('no draft');
    expect(draftProblem(draft)).toBeNull();
    expect(draftWarning(draft)).toMatch(/Empty result/);
    expect(draftProblem({ ...draft, mode: 'json', content: '{"a": ' })).toMatch(/^Not valid JSON/);
    expect(draftProblem({ ...draft, mode: 'json', content: '' })).toMatch(/Enter a JSON value/);
    expect(draftProblem({ ...draft, mode: 'json', content: '{"a": 1}' })).toBeNull();
  });

  test('buildRequest sends every draft with its is_error flag, in the wire field names', () => {
    const drafts = draftsFor([
      { toolUseId: 't1', name: 'user_confirm', input: {} },
      { toolUseId: 't2', name: 'x', input: {} },
    ]).map((d, i) => ({ ...d, content: i === 0 ? 'yes' : 'boom', isError: i === 1 }));
    expect(buildRequest('s1', drafts)).toEqual({
      sessionId: 's1',
      results: [
        { tool_use_id: 't1', content: 'yes', is_error: false },
        { tool_use_id: 't2', content: 'boom', is_error: true },
      ],
    });
    expect(buildRequest('s1', drafts, { resend: true }).resend).toBe(true);
  });

  test('pendingKey differs per leg and block', () => {
    expect(pendingKey('s', { leg: 0, block: 4 })).not.toBe(pendingKey('s', { leg: 1, block: 4 }));
  });
});

describe('auto-answer settings', () => {
  test('off by default, and junk in storage gives the defaults', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_AUTO_ANSWER);
    expect(DEFAULT_AUTO_ANSWER.enabled).toBe(false);
    expect(parseSettings('{not json')).toEqual(DEFAULT_AUTO_ANSWER);
    expect(parseSettings('42')).toEqual(DEFAULT_AUTO_ANSWER);
  });

  test('invalid rules are dropped, valid ones kept', () => {
    const parsed = parseSettings(
      JSON.stringify({
        enabled: true,
        rules: [
          { tool: 'a', content: 'x' },
          { tool: '', content: 'y' },
          { tool: 'b' },
          7,
          { tool: 'c', content: 'z', isError: true },
        ],
      }),
    );
    expect(parsed).toEqual({
      enabled: true,
      rules: [
        { tool: 'a', content: 'x', isError: false },
        { tool: 'c', content: 'z', isError: true },
      ],
    });
  });

  test('the store persists to storage and survives a storage that throws', () => {
    const map = new Map<string, string>();
    const storage: KeyValueStorage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
    const store = createAutoAnswerStore(storage);
    let notified = 0;
    store.subscribe(() => notified++);
    store.set({ ...DEFAULT_AUTO_ANSWER, enabled: true });
    expect(notified).toBe(1);
    expect(createAutoAnswerStore(storage).getSnapshot().enabled).toBe(true);
    expect(map.has(AUTO_ANSWER_STORAGE_KEY)).toBe(true);

    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    const fallback = createAutoAnswerStore(broken);
    expect(fallback.getSnapshot()).toEqual(DEFAULT_AUTO_ANSWER);
    fallback.set({ ...DEFAULT_AUTO_ANSWER, enabled: true });
    expect(fallback.getSnapshot().enabled).toBe(true);
  });
});

describe('planAutoAnswer and the auto-answerer', () => {
  const on: AutoAnswerSettings = { ...DEFAULT_AUTO_ANSWER, enabled: true };
  const tools = pendingToolsOf('frontend_tools.json.sse');

  test('off does nothing; on answers user_confirm with its rule', () => {
    expect(planAutoAnswer(DEFAULT_AUTO_ANSWER, tools)).toEqual({ kind: 'off' });
    expect(planAutoAnswer(on, tools)).toEqual({
      kind: 'answer',
      results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes', is_error: false }],
    });
  });

  test('a tool without a rule (and no *) blocks the whole set', () => {
    const strict = { enabled: true, rules: [{ tool: 'user_confirm', content: 'no', isError: false }] };
    expect(planAutoAnswer(strict, [...tools, { toolUseId: 't9', name: 'pick_file', input: {} }])).toEqual({
      kind: 'no-rule',
      tools: ['pick_file'],
    });
  });

  test('each pending set is sent once, and sets already answered are left alone', () => {
    const sent: SendToolResultsRequest[] = [];
    const skipped: string[][] = [];
    let settings = on;
    const answerer = createAutoAnswerer({
      settings: () => settings,
      send: (r) => (sent.push(r), Promise.resolve()),
      onSkipped: (_s, t) => skipped.push(t),
    });
    answerer.consider('s1', pendingSet(tools));
    answerer.consider('s1', pendingSet(tools));
    answerer.consider('s1', pendingSet(tools, 'sent', 1));
    answerer.consider('s1', null);
    expect(sent).toEqual([
      { sessionId: 's1', results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes', is_error: false }] },
    ]);
    // The continuation pauses again: a new set, answered again.
    answerer.consider('s1', pendingSet(tools, 'no', 1));
    expect(sent).toHaveLength(2);
    settings = { enabled: true, rules: [] };
    answerer.consider('s2', pendingSet(tools));
    expect(skipped).toEqual([['user_confirm']]);
    settings = DEFAULT_AUTO_ANSWER;
    answerer.consider('s3', pendingSet(tools));
    expect(sent).toHaveLength(2);
  });
});

describe('replays: the recorded answer', () => {
  const recordedBody = readFixtureText('frontend_tools.request.json');

  test('recordedAnswers reads the tool_results of the recorded request (frontend_tools.request.json)', () => {
    expect(recordedAnswers(recordedBody)).toEqual([
      { tool_use_id: 'toolu_synth_confirm', content: 'yes', is_error: false },
    ]);
    expect(recordedAnswers('not json')).toBeNull();
    expect(recordedAnswers(undefined)).toBeNull();
    expect(recordedAnswers('{"tool_results": [{"tool_use_id": "t", "content": {"a": 1}}, {"content": "x"}]}')).toEqual([
      { tool_use_id: 't', content: '{"a":1}', is_error: false },
    ]);
  });

  const sourceLegs = [
    { leg: 0, kind: 'run' as const, request: null, format: 'json' as const },
    { leg: 1, kind: 'tool-results' as const, request: request(recordedBody), format: 'json' as const },
  ];

  test('recordedAnswersAt: the next leg of the recording, only when it is a tool-results leg', () => {
    expect(recordedAnswersAt(sourceLegs, 0, [])).toEqual([
      { tool_use_id: 'toolu_synth_confirm', content: 'yes', is_error: false },
    ]);
    expect(recordedAnswersAt(sourceLegs, 1, [])).toBeNull();
    expect(
      recordedAnswersAt(
        [
          { leg: 0, kind: 'run', request: null, format: 'json' },
          { leg: 1, kind: 'reconnect', request: request(recordedBody), format: 'json' },
        ],
        0,
        [],
      ),
    ).toBeNull();
  });

  test('draftsWithAnswers prefills the matching drafts and leaves the others', () => {
    const drafts = draftsFor([
      ...pendingToolsOf('frontend_tools.json.sse'),
      { toolUseId: 'other', name: 'x', input: {} },
    ]);
    const filled = draftsWithAnswers(drafts, [{ tool_use_id: 'toolu_synth_confirm', content: 'no', is_error: true }]);
    expect(filled.map((d) => [d.toolUseId, d.content, d.isError])).toEqual([
      ['toolu_synth_confirm', 'no', true],
      ['other', '', false],
    ]);
    expect(draftsWithAnswers(drafts, null)).toEqual(drafts);
  });
});

describe('a call waiting for its approval (the AI SDK’s tool-approval-request)', () => {
  const tools: PendingToolPayload[] = (
    decodeBytes(readProviderFixture('ai-sdk-ui/tool-approval.sse')).blocks.find(
      (b) => b.kind === 'awaiting_frontend_tools',
    )?.pendingTools ?? []
  ).map((t) => ({ toolUseId: t.toolUseId, name: t.name, input: t.input ?? null, approvalId: t.approvalId }));

  test('is approved or denied, not answered: its reason optional, its choice required', () => {
    const [draft] = draftsFor(tools);
    if (!draft) throw new Error('no draft');
    expect(draft).toMatchObject({ toolUseId: 'call_delete', approvalId: 'approval-delete', approved: null });
    expect(quickAnswers(draft).map((q) => q.id)).toEqual(['approve', 'deny']);
    expect(draftProblem(draft)).toBe('Approve or deny the call.');
    expect(draftWarning(draft)).toBeNull();
    const [approve, deny] = quickAnswers(draft);
    if (!approve || !deny) throw new Error('no quick answers');
    const denied = withQuickAnswer({ ...draft, content: 'not now' }, deny);
    expect(denied).toMatchObject({ approved: false, content: 'not now' });
    expect([isQuickAnswer(denied, approve), isQuickAnswer(denied, deny)]).toEqual([false, true]);
    expect(draftProblem(denied)).toBeNull();
    expect(toResults([denied])).toEqual([{ tool_use_id: 'call_delete', content: 'not now', approved: false }]);
  });

  test('the prompt says what it waits for', () => {
    const approval = { approvalId: 'a' };
    const result = { approvalId: null };
    expect(waitedFor([approval])).toEqual({ what: 'an approval', send: 'Send approval' });
    expect(waitedFor([approval, approval])).toEqual({ what: '2 approvals', send: 'Send 2 approvals' });
    expect(waitedFor([result])).toEqual({ what: 'a frontend tool result', send: 'Send result' });
    expect(waitedFor([result, approval])).toEqual({
      what: '2 answers (results and approvals)',
      send: 'Send 2 answers',
    });
    // Anthropic's pause_turn: no call, the turn to continue.
    expect(waitedFor([])).toEqual({ what: 'its paused turn to be continued', send: 'Continue the turn' });
  });

  test("a recording's notice names what its pause waits for: a pause_turn is no '0 frontend tools ()'", () => {
    expect(pausedRecordingNotice([])).toEqual({ what: 'its paused turn to be continued', names: '', act: 'continue' });
    expect(pausedRecordingNotice([{ name: 'user_confirm' }])).toEqual({
      what: 'a frontend tool result',
      names: 'user_confirm',
      act: 'answer',
    });
    expect(pausedRecordingNotice([{ name: 'get_weather' }, { name: 'delete_file', approvalId: 'a' }])).toEqual({
      what: '2 answers (results and approvals)',
      names: 'get_weather, delete_file',
      act: 'answer',
    });
  });

  test('auto-answer approves it by its rule, or denies it when the rule is an error', () => {
    const approve = planAutoAnswer({ enabled: true, rules: [{ tool: '*', content: 'ok', isError: false }] }, tools);
    expect(approve).toEqual({ kind: 'answer', results: [{ tool_use_id: 'call_delete', content: '', approved: true }] });
    const deny = planAutoAnswer(
      { enabled: true, rules: [{ tool: 'delete_file', content: 'no', isError: true }] },
      tools,
    );
    expect(deny).toEqual({ kind: 'answer', results: [{ tool_use_id: 'call_delete', content: '', approved: false }] });
  });
});

describe('a replay of a run its dialect continued: the recorded answers read back from the continuation', () => {
  const pauseOf = (name: string) =>
    decodeBytes(readProviderFixture(name)).blocks.find((b) => b.kind === 'awaiting_frontend_tools')!;
  const legs = (format: 'ai-sdk-ui' | 'ag-ui', body: string) => [
    { leg: 0, kind: 'run' as const, request: null, format },
    { leg: 1, kind: 'tool-results' as const, request: request(body), format },
  ];

  test.each<[string, string, ClientToolAnswer]>([
    ['ai-sdk-ui/tool-approval.sse', 'call_delete', { toolUseId: 'call_delete', content: 'keep it', approved: false }],
    ['ai-sdk-ui/client-tool.sse', 'call_confirm', { toolUseId: 'call_confirm', content: '{"ok":true}' }],
    ['ai-sdk-ui/client-tool.txt', 'call_confirm', { toolUseId: 'call_confirm', content: 'no' }],
    ['ai-sdk-ui/client-tool.sse', 'call_confirm', { toolUseId: 'call_confirm', content: 'failed', isError: true }],
  ])('%s: what the continuation sent for %s comes back as the draft', (fixture, _id, answer) => {
    const pause = pauseOf(fixture);
    const previousBody = JSON.stringify({ id: 'c', messages: [{ id: 'u', role: 'user', parts: [] }] });
    const calls = pause.pendingTools ?? [];
    const body = DIALECT_REGISTRY.get('ai-sdk-ui')!.clientTools!.continueBody({
      previousBody,
      calls,
      answers: [answer],
      pause: pause.parsed,
    });
    const [draft] = draftsWithAnswers(
      draftsFor(calls.map(payloadOf)),
      recordedAnswersAt(legs('ai-sdk-ui', body), 0, calls.map(payloadOf)),
    );
    expect(draft).toMatchObject({
      toolUseId: answer.toolUseId,
      content: answer.content,
      isError: answer.isError === true,
      approved: answer.approved ?? null,
    });
  });

  test('AG-UI: the tool messages of the new RunAgentInput; a body that is not one reads as none', () => {
    const pause = pauseOf('ag-ui/frontend-tool.sse');
    const calls = pause.pendingTools ?? [];
    const answers = calls.map((c) => ({ toolUseId: c.toolUseId, content: 'blue' }));
    const body = DIALECT_REGISTRY.get('ag-ui')!.clientTools!.continueBody({
      previousBody: JSON.stringify({ threadId: 't', runId: 'r', messages: [] }),
      calls,
      answers,
    });
    expect(recordedAnswersAt(legs('ag-ui', body), 0, calls.map(payloadOf))).toEqual(
      calls.map((c) => ({ tool_use_id: c.toolUseId, content: 'blue', is_error: false })),
    );
    expect(recordedAnswersAt(legs('ag-ui', 'not json'), 0, [])).toBeNull();
  });
});

function payloadOf(tool: PendingTool): PendingToolPayload {
  return {
    toolUseId: tool.toolUseId,
    name: tool.name,
    input: tool.input ?? null,
    ...(tool.approvalId !== undefined ? { approvalId: tool.approvalId } : {}),
  };
}
