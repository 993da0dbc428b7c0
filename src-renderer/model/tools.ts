import type {
  LegInfo,
  PendingToolPayload,
  PendingTools,
  SendToolResultsRequest,
  ToolResult,
} from '../../src-shared/contract';
import { DIALECT_REGISTRY } from '../../src-shared/dialects/registry';
import { awaitedOf } from '../../src-shared/pipeline/end-status';
import { displayJson } from './json-display';

/**
 * The frontend-tools prompt's model: one draft answer per pending tool, quick answers, checks
 * before sending, the request for `sendToolResults`, and the auto-answer rules used by QA runs.
 */

export type ResultMode = 'text' | 'json';

export interface ToolDraft {
  toolUseId: string;
  name: string;
  input: unknown;
  /** `input.message` when the tool carries one: what the user is asked. */
  message: string | null;
  mode: ResultMode;
  /** The result; for an approval, the reason given (optional). */
  content: string;
  isError: boolean;
  /** Set when the call waits for its approval, not for a result: the approval's id. */
  approvalId: string | null;
  /** An approval's answer: approved or denied, null until the user chooses. */
  approved: boolean | null;
  /** Set when the call takes only answers of one form (a screenshot): what to give, as its dialect says it. */
  answerHint: string | null;
}

/** The tool the demo UI answers with yes/no (docs/protocols/upstream-protocol.md §8 #35). */
export const CONFIRM_TOOL = 'user_confirm';

export function messageOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const message = (input as Record<string, unknown>)['message'];
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

export function prettyInput(input: unknown): string {
  if (input === undefined) return '(no input)';
  return displayJson(input) ?? '(not JSON)';
}

/** Empty drafts: the user picks a quick answer or types one. */
export function draftsFor(tools: readonly PendingToolPayload[]): ToolDraft[] {
  return tools.map((tool) => ({
    toolUseId: tool.toolUseId,
    name: tool.name,
    input: tool.input,
    message: messageOf(tool.input),
    mode: 'text',
    content: '',
    isError: false,
    approvalId: tool.approvalId ?? null,
    approved: null,
    answerHint: tool.answerHint ?? null,
  }));
}

/** A one-click answer: a result (`content`, `isError`), or an approval's choice (`approved`). */
export interface QuickAnswer {
  /** Names its button (`tool-quick-answer-<id>`). */
  id: string;
  label: string;
  content: string;
  isError: boolean;
  approved?: boolean;
}

const APPROVE: QuickAnswer = { id: 'approve', label: 'Approve', content: '', isError: false, approved: true };
const DENY: QuickAnswer = { id: 'deny', label: 'Deny', content: '', isError: false, approved: false };

/**
 * A call waiting for its approval: approve / deny; user_confirm: yes / no, as the demo UI sends
 * them; a call that takes one form of answer (a screenshot): none, "ok" would be refused; other
 * tools: ok.
 */
export function quickAnswers(draft: Pick<ToolDraft, 'name' | 'approvalId' | 'answerHint'>): QuickAnswer[] {
  if (draft.approvalId !== null) return [APPROVE, DENY];
  if (draft.answerHint !== null) return [];
  if (draft.name === CONFIRM_TOOL) {
    return [
      { id: 'yes', label: 'Yes', content: 'yes', isError: false },
      { id: 'no', label: 'No', content: 'no', isError: false },
    ];
  }
  return [{ id: 'ok', label: 'OK', content: 'ok', isError: false }];
}

/** The draft once a quick answer is chosen: an approval keeps the reason typed so far. */
export function withQuickAnswer(draft: ToolDraft, answer: QuickAnswer): ToolDraft {
  if (answer.approved !== undefined) return { ...draft, approved: answer.approved };
  return { ...draft, mode: 'text', content: answer.content, isError: answer.isError };
}

/** Whether the draft is what the quick answer would send (its button shows pressed). */
export function isQuickAnswer(draft: ToolDraft, answer: QuickAnswer): boolean {
  if (answer.approved !== undefined) return draft.approved === answer.approved;
  return draft.mode === 'text' && draft.content === answer.content && draft.isError === answer.isError;
}

/**
 * What a pending set waits for, as the prompt says it ("a frontend tool result", "2
 * approvals", "3 answers (results and approvals)"), and its send button's label. A pause with
 * no call (Anthropic's pause_turn) waits for its turn to be continued.
 */
export function waitedFor(calls: readonly { approvalId?: string | null }[]): { what: string; send: string } {
  const count = calls.length;
  if (count === 0) return { what: 'its paused turn to be continued', send: 'Continue the turn' };
  const words = WAITED_FOR[awaitedOf(calls)];
  return count === 1
    ? { what: words.one, send: `Send ${words.oneSent}` }
    : { what: `${count} ${words.many}`, send: `Send ${count} ${words.manySent}` };
}

/**
 * The notice of a recording that ends paused, which a file cannot answer: what it waits for,
 * as the prompt says it, the tools by name, and what replaying lets one do there. A pause
 * with no call (pause_turn) waits for its turn to be continued, not for a tool.
 */
export function pausedRecordingNotice(tools: readonly Pick<PendingToolPayload, 'name' | 'approvalId'>[]): {
  what: string;
  names: string;
  act: 'answer' | 'continue';
} {
  const { what } = waitedFor(tools);
  return { what, names: tools.map((t) => t.name).join(', '), act: tools.length === 0 ? 'continue' : 'answer' };
}

/** How the prompt names what a pause waits for, by what its calls wait for (awaitedOf). */
const WAITED_FOR = {
  results: { one: 'a frontend tool result', many: 'frontend tool results', oneSent: 'result', manySent: 'results' },
  approvals: { one: 'an approval', many: 'approvals', oneSent: 'approval', manySent: 'approvals' },
  answers: { one: '', many: 'answers (results and approvals)', oneSent: '', manySent: 'answers' },
} as const;

/** Why a draft cannot be sent as it is (null when it can). */
export function draftProblem(draft: ToolDraft): string | null {
  if (draft.approvalId !== null) return draft.approved === null ? 'Approve or deny the call.' : null;
  // An empty answer is no screenshot: the API would refuse it, so it is not sent.
  if (draft.answerHint !== null && draft.content.trim() === '') return `Give ${draft.answerHint}.`;
  if (draft.mode === 'json') {
    if (draft.content.trim() === '') return 'Enter a JSON value (the content is sent as its text).';
    try {
      JSON.parse(draft.content);
    } catch (error) {
      return `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return null;
}

/** A hint that does not block sending. */
export function draftWarning(draft: ToolDraft): string | null {
  return draft.approvalId === null && draft.answerHint === null && draft.mode === 'text' && draft.content === ''
    ? 'Empty result: the server receives an empty string.'
    : null;
}

/** The answers as sent: an approval approves or denies, with its reason as content. */
export function toResults(drafts: readonly ToolDraft[]): ToolResult[] {
  return drafts.map((d) =>
    d.approvalId !== null
      ? { tool_use_id: d.toolUseId, content: d.content, approved: d.approved === true }
      : { tool_use_id: d.toolUseId, content: d.content, is_error: d.isError },
  );
}

export function buildRequest(
  sessionId: string,
  drafts: readonly ToolDraft[],
  options: { resend?: boolean } = {},
): SendToolResultsRequest {
  return { sessionId, results: toResults(drafts), ...(options.resend ? { resend: true } : {}) };
}

/** Identifies one pending set: a new pause (another leg or block) gets fresh drafts. */
export function pendingKey(sessionId: string, pending: Pick<PendingTools, 'leg' | 'block'>): string {
  return `${sessionId}:${pending.leg}:${pending.block}`;
}

// ─── Auto-answer rules ──────────────────────────────────────────────────────────────────

export interface AutoAnswerRule {
  /** Tool name, or `*` for any tool without its own rule. */
  tool: string;
  content: string;
  isError: boolean;
}

export interface AutoAnswerSettings {
  enabled: boolean;
  rules: AutoAnswerRule[];
}

export const AUTO_ANSWER_STORAGE_KEY = 'stream-inspector.auto-answer.v1';

export const DEFAULT_AUTO_ANSWER: AutoAnswerSettings = {
  enabled: false,
  rules: [
    { tool: CONFIRM_TOOL, content: 'yes', isError: false },
    { tool: '*', content: 'ok', isError: false },
  ],
};

/** Settings from storage; anything unreadable gives the defaults (off). */
export function parseSettings(raw: string | null): AutoAnswerSettings {
  if (raw === null) return DEFAULT_AUTO_ANSWER;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return DEFAULT_AUTO_ANSWER;
  }
  if (typeof value !== 'object' || value === null) return DEFAULT_AUTO_ANSWER;
  const v = value as Record<string, unknown>;
  const rules = Array.isArray(v['rules'])
    ? v['rules'].flatMap((r: unknown): AutoAnswerRule[] => {
        if (typeof r !== 'object' || r === null) return [];
        const rule = r as Record<string, unknown>;
        const tool = rule['tool'];
        const content = rule['content'];
        if (typeof tool !== 'string' || tool.trim() === '' || typeof content !== 'string') return [];
        return [{ tool: tool.trim(), content, isError: rule['isError'] === true }];
      })
    : DEFAULT_AUTO_ANSWER.rules;
  return { enabled: v['enabled'] === true, rules };
}

export function serializeSettings(settings: AutoAnswerSettings): string {
  return JSON.stringify(settings);
}

export function ruleFor(settings: AutoAnswerSettings, tool: string): AutoAnswerRule | undefined {
  return settings.rules.find((r) => r.tool === tool) ?? settings.rules.find((r) => r.tool === '*');
}

export type AutoAnswerPlan =
  { kind: 'off' } | { kind: 'answer'; results: ToolResult[] } | { kind: 'no-rule'; tools: string[] };

/**
 * What auto-answer does for a pending set: every tool needs a rule, else nothing is sent. A
 * call waiting for its approval is approved by its rule, or denied when the rule is an error.
 */
export function planAutoAnswer(settings: AutoAnswerSettings, tools: readonly PendingToolPayload[]): AutoAnswerPlan {
  if (!settings.enabled) return { kind: 'off' };
  const missing: string[] = [];
  const results: ToolResult[] = [];
  for (const tool of tools) {
    const rule = ruleFor(settings, tool.name);
    if (!rule) missing.push(tool.name);
    else if (tool.approvalId !== undefined)
      results.push({ tool_use_id: tool.toolUseId, content: '', approved: !rule.isError });
    else results.push({ tool_use_id: tool.toolUseId, content: rule.content, is_error: rule.isError });
  }
  return missing.length > 0 ? { kind: 'no-rule', tools: missing } : { kind: 'answer', results };
}

/** The bit of Web Storage the settings need (localStorage in the app, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface AutoAnswerStore {
  getSnapshot(): AutoAnswerSettings;
  subscribe(listener: () => void): () => void;
  set(settings: AutoAnswerSettings): void;
}

export function createAutoAnswerStore(storage: KeyValueStorage | null): AutoAnswerStore {
  let settings = parseSettings(readSafely(storage));
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => settings,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      settings = next;
      try {
        storage?.setItem(AUTO_ANSWER_STORAGE_KEY, serializeSettings(next));
      } catch {
        // Storage full or disabled: the setting still applies for this window.
      }
      for (const listener of [...listeners]) listener();
    },
  };
}

function readSafely(storage: KeyValueStorage | null): string | null {
  try {
    return storage?.getItem(AUTO_ANSWER_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * Sends each pending set at most once (a set the user or a previous auto-answer already sent
 * is left alone). `consider` is called whenever a session's pending tools may have changed.
 */
export interface AutoAnswerer {
  consider(sessionId: string, pending: PendingTools | null): void;
}

export function createAutoAnswerer(deps: {
  settings: () => AutoAnswerSettings;
  send: (request: SendToolResultsRequest) => Promise<unknown>;
  /** A pending set auto-answer cannot handle (a tool without a rule). */
  onSkipped?: (sessionId: string, tools: string[]) => void;
}): AutoAnswerer {
  const handled = new Set<string>();
  return {
    consider(sessionId, pending) {
      if (!pending || pending.answered !== 'no') return;
      const key = pendingKey(sessionId, pending);
      if (handled.has(key)) return;
      const plan = planAutoAnswer(deps.settings(), pending.tools);
      if (plan.kind === 'off') return;
      handled.add(key);
      if (plan.kind === 'no-rule') deps.onSkipped?.(sessionId, plan.tools);
      else void deps.send({ sessionId, results: plan.results });
    },
  };
}

// ─── Replays: the recorded answer ───────────────────────────────────────────────────────

/** The results a recorded `POST /agent/tool_results` body carried; null when it has none. */
export function recordedAnswers(body: string | undefined): ToolResult[] | null {
  if (body === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const results = (parsed as Record<string, unknown>)['tool_results'];
  if (!Array.isArray(results)) return null;
  return results.flatMap((r: unknown): ToolResult[] => {
    if (typeof r !== 'object' || r === null) return [];
    const { tool_use_id: id, content, is_error: isError } = r as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') return [];
    return [
      {
        tool_use_id: id,
        content: typeof content === 'string' ? content : (JSON.stringify(content) ?? ''),
        is_error: isError === true,
      },
    ];
  });
}

/**
 * What the recorded run answered at the pause of leg `pauseLeg`: the answers the source's next
 * leg sent when it is a tool-results leg (null when the recording has none). A dialect that
 * continues its runs itself reads them from its own continuation's body (`answersIn`); any
 * other continuation is the upstream agent's `tool_results`.
 */
export function recordedAnswersAt(
  sourceLegs: readonly Pick<LegInfo, 'leg' | 'kind' | 'request' | 'format'>[],
  pauseLeg: number,
  calls: readonly PendingToolPayload[],
): ToolResult[] | null {
  const next = sourceLegs.find((l) => l.leg === pauseLeg + 1);
  if (next?.kind !== 'tool-results') return null;
  const body = next.request?.body;
  const continuation = next.format ? DIALECT_REGISTRY.get(next.format)?.clientTools : undefined;
  if (!continuation?.answersIn) return recordedAnswers(body);
  return (
    continuation.answersIn(body ?? '', calls)?.map((answer) => ({
      tool_use_id: answer.toolUseId,
      content: answer.content,
      ...(answer.approved !== undefined ? { approved: answer.approved } : { is_error: answer.isError === true }),
    })) ?? null
  );
}

/** Drafts prefilled with recorded answers (a replay answers as the recorded run did). */
export function draftsWithAnswers(drafts: readonly ToolDraft[], answers: readonly ToolResult[] | null): ToolDraft[] {
  if (!answers) return [...drafts];
  return drafts.map((d) => {
    const answer = answers.find((a) => a.tool_use_id === d.toolUseId);
    return answer
      ? { ...d, content: answer.content, isError: answer.is_error === true, approved: answer.approved ?? null }
      : d;
  });
}
