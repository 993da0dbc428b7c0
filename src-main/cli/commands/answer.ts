import { resolve } from 'node:path';
import type { PendingTools, SessionSummary, ToolResult } from '../../../src-shared/contract/payloads';
import { ToolResult as ToolResultSchema } from '../../../src-shared/contract/payloads';
import { array } from '../../../src-shared/contract/schema';
import { KIND } from '../../../src-shared/envelope/vocabulary';
import { createDefaultSessionService } from '../../hosts/default-service';
import { readRegularTextFile } from '../../services/importers/regular-file';
import type { SessionService } from '../../services/sessions/session-service';
import { buildToolResultsBody, toolResultsUrl } from '../../services/tool-results/tool-results';
import { parse } from '../args';
import { printJson, UsageError, type CliIo, type Command } from '../io';
import { describeOutcome, exitCodeFor, parseHeaderArg, untilSettled } from './record';

/**
 * `answer`: sends frontend-tool results for a paused run and follows the continuation.
 *
 *   answer FILE [--result ID=TEXT]… [--error ID=TEXT]… [--approve ID[=REASON]]… [--deny ID[=REASON]]…
 *          [--results FILE.json] [--yes]
 *          [-H 'Name: value']… [--url RUN_URL] [--path /agent/tool_results] [--extra key=value]… [-o OUT]
 *     FILE is a recording (or capture) that ends on awaiting_frontend_tools; the pending tools,
 *     the agent uuid and the run URL come from it. Recordings keep no credentials: pass them
 *     with -H. Without results, lists the pending tools. A call that waits for its approval
 *     (the AI SDK's tool approvals) is answered with --approve or --deny, with an optional
 *     reason. -o writes the whole session (the recorded legs, the answer and the continuation)
 *     to a new recording.
 *
 *   answer --url RUN_URL --agent-uuid UUID --result ID=TEXT… [-H …] [-o OUT]
 *     A run paused on a live server, known only by its uuid: no check of the ids.
 */

function splitPair(text: string, option: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${option} takes TOOL_USE_ID=TEXT, not '${text}'`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

/** `ID` or `ID=REASON`: the call's id and the reason given ('' for none). */
function splitApproval(text: string, option: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq === 0 || text === '') throw new UsageError(`${option} takes TOOL_USE_ID or TOOL_USE_ID=REASON, not '${text}'`);
  return eq < 0 ? [text, ''] : [text.slice(0, eq), text.slice(eq + 1)];
}

async function readResults(
  values: { result?: string[]; error?: string[]; approve?: string[]; deny?: string[]; results?: string },
  io: CliIo,
): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  if (values.results) {
    const text = await readRegularTextFile(resolve(io.cwd, values.results));
    try {
      results.push(...array(ToolResultSchema).parse(JSON.parse(text), '--results'));
    } catch (error) {
      throw new UsageError(
        `--results must be a JSON array of {tool_use_id, content, is_error?, approved?}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  for (const pair of values.result ?? []) {
    const [id, content] = splitPair(pair, '--result');
    results.push({ tool_use_id: id, content, is_error: false });
  }
  for (const pair of values.error ?? []) {
    const [id, content] = splitPair(pair, '--error');
    results.push({ tool_use_id: id, content, is_error: true });
  }
  for (const [option, approved] of [
    ['approve', true],
    ['deny', false],
  ] as const) {
    for (const text of values[option] ?? []) {
      const [id, reason] = splitApproval(text, `--${option}`);
      results.push({ tool_use_id: id, content: reason, approved });
    }
  }
  return results;
}

/**
 * The demo UI's quick answers: "yes" for user_confirm, "ok" for anything else
 * (docs/protocols/upstream-protocol.md §8 #35); a call waiting for its approval is approved.
 */
function quickAnswers(pending: PendingTools): ToolResult[] {
  return pending.tools.map((t) =>
    t.approvalId !== undefined
      ? { tool_use_id: t.toolUseId, content: '', approved: true }
      : { tool_use_id: t.toolUseId, content: t.name === 'user_confirm' ? 'yes' : 'ok', is_error: false },
  );
}

function listPending(pending: PendingTools): string {
  if (pending.tools.length === 0)
    return `The model paused its turn (pause_turn, message ${pending.agentUuid}); continue it with --yes.\n`;
  const lines = [`Paused on awaiting_frontend_tools (agent ${pending.agentUuid}); pending tools:`];
  for (const tool of pending.tools) {
    const input = tool.input as { message?: unknown } | null;
    const shown = input && typeof input.message === 'string' ? input.message : JSON.stringify(tool.input);
    const approval = tool.approvalId !== undefined ? '  (waits for its approval)' : '';
    const form = tool.answerHint !== undefined ? `  (answered with ${tool.answerHint})` : '';
    lines.push(`  ${tool.toolUseId}  ${tool.name}  ${shown}${approval}${form}`);
  }
  lines.push(
    'Answer with --result TOOL_USE_ID=TEXT (or --error, --results FILE.json, --yes); a call that waits for its approval with --approve or --deny TOOL_USE_ID[=REASON].',
  );
  return `${lines.join('\n')}\n`;
}

function parseExtra(pairs: string[] | undefined): Record<string, unknown> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--extra takes key=value, not '${pair}'`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** What the continuation said: its text, and whether it paused again. */
async function describeContinuation(service: SessionService, sessionId: string, leg: number): Promise<string> {
  const blocks = await service.getBlocks({ sessionId });
  const text = blocks.filter((b) => b.leg === leg && b.kind === KIND.text).map((b) => b.preview);
  return text.length > 0 ? `Continuation (leg ${leg}): ${text.join(' ')}\n` : `Continuation (leg ${leg}): no text.\n`;
}

export const answer: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    result: { type: 'string', multiple: true },
    error: { type: 'string', multiple: true },
    approve: { type: 'string', multiple: true },
    deny: { type: 'string', multiple: true },
    results: { type: 'string' },
    yes: { type: 'boolean' },
    header: { type: 'string', short: 'H', multiple: true },
    url: { type: 'string' },
    'agent-uuid': { type: 'string' },
    path: { type: 'string' },
    extra: { type: 'string', multiple: true },
    output: { type: 'string', short: 'o' },
    json: { type: 'boolean' },
  });
  const headers = (values.header ?? []).map(parseHeaderArg);
  const extraBody = parseExtra(values.extra);
  const results = await readResults(values, io);
  const output = values.output ? resolve(io.cwd, values.output) : undefined;
  const service = createDefaultSessionService();
  const finish = (summary: SessionSummary): number => {
    if (values.json) printJson(io, summary);
    io.stderr(describeOutcome(summary));
    return exitCodeFor(summary);
  };

  try {
    if (positionals.length === 0) {
      // A run paused on a live server, addressed by its uuid.
      if (!values.url || !values['agent-uuid'])
        throw new UsageError('expected a recording FILE, or --url RUN_URL with --agent-uuid UUID');
      if (results.length === 0)
        throw new UsageError('give the results with --result ID=TEXT, --error ID=TEXT or --results FILE.json');
      const target = toolResultsUrl(values.url, values.path);
      const started = await service.connect({
        url: target.href,
        method: 'POST',
        headers,
        body: { kind: 'json', text: buildToolResultsBody(values['agent-uuid'], results, extraBody) },
        ...(output ? { recordTo: output } : {}),
        title: `Tool results for ${values['agent-uuid']}`,
      });
      io.stderr(
        `POST ${target.origin}${target.pathname}: ${results.length} result(s) for agent ${values['agent-uuid']}\n`,
      );
      const summary = await untilSettled(service, started.id);
      io.stderr(await describeContinuation(service, started.id, 0));
      return finish(summary);
    }

    if (positionals.length !== 1 || !positionals[0]) throw new UsageError('expected exactly one recording FILE');
    const file = resolve(io.cwd, positionals[0]);
    const opened = await service.openFile({ path: file });
    await untilSettled(service, opened.id);
    const detail = await service.getSession({ sessionId: opened.id });
    const pending = detail.pendingTools;
    if (!pending) {
      // Said as every command says a failure (its name first), with how the stream did end.
      const end = detail.summary.end;
      throw new Error(
        `${file} ends ${end ? `${end.label}, not awaiting tools` : 'without awaiting tools'}: there is nothing to answer`,
      );
    }
    if (pending.answered === 'sent') {
      io.stderr(
        `${file} already sent the tool results for this pause (agent ${pending.agentUuid}) and ends before their continuation; sending them again would run the continuation twice.\n`,
      );
      return 2;
    }
    const answers = values.yes ? quickAnswers(pending) : results;
    // A paused turn (no call) is continued with no answer, once asked to.
    if (answers.length === 0 && !(values.yes && pending.tools.length === 0)) {
      io.stdout(listPending(pending));
      return 1;
    }
    service.attachRun({ sessionId: opened.id, headers, ...(values.url ? { url: values.url } : {}) });
    const { leg } = await service.sendToolResults({
      sessionId: opened.id,
      results: answers,
      ...(values.path ? { path: values.path } : {}),
      ...(extraBody ? { extraBody } : {}),
    });
    io.stderr(`Sent ${answers.length} answer(s) for agent ${pending.agentUuid}; following the continuation…\n`);
    const summary = await untilSettled(
      service,
      opened.id,
      (s) => s.legs > leg && s.state !== 'connecting' && s.state !== 'streaming',
    );
    io.stderr(await describeContinuation(service, opened.id, leg));
    if (output) {
      const saved = await service.saveRecording({ sessionId: opened.id, path: output });
      if (saved) io.stderr(`Session with the continuation written to ${saved.path}\n`);
    }
    return finish(summary);
  } finally {
    await service.dispose();
  }
};
