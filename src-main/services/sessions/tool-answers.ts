import type { PendingTools, SendToolResultsRequest, ToolResult } from '../../../src-shared/contract/payloads';
import { DIALECT_REGISTRY } from '../../../src-shared/dialects/registry';
import type { DialectModule } from '../../../src-shared/dialects/types';
import type { RecordedAction } from '../../../src-shared/recording/types';
import { pendingSetKey } from '../tool-results/answer-ledger';
import {
  buildClientToolRequest,
  buildToolResultsRequest,
  checkResults,
  defaultExtraBody,
  defaultToolResultsPath,
} from '../tool-results/tool-results';
import type { Runtime, SessionRegistry } from './session-registry';
import type { LiveSessions } from './sources/live-session';
import type { SessionStore } from './store/session-store';
import { toPendingTools } from './store/session-summary';
import { KIND } from '../../../src-shared/envelope/vocabulary';

/**
 * Answering a run paused on awaiting_frontend_tools: live, by sending the results as the next
 * leg (docs/protocols/upstream-protocol.md), or, when the paused leg's dialect continues its
 * runs itself (DialectModule.clientTools: the AI SDK, AG-UI), by sending the request its hook
 * builds, as the dialect's frontend would; in a replay, by playing the recorded continuation;
 * a file, only once given the live server's credentials (`attachRun`, the CLI's answer).
 */

type Pending = NonNullable<ReturnType<SessionStore['pendingTools']>>;

/** The paused leg's dialect, when it continues its runs itself. */
function selfContinuing(data: SessionStore, pending: Pending): DialectModule | undefined {
  const format = data.legs[pending.leg]?.format;
  const module = format ? DIALECT_REGISTRY.get(format) : undefined;
  return module?.clientTools ? module : undefined;
}

/** The path and query of a URL, as the prompt shows where the request goes. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export function createToolAnswers(registry: SessionRegistry, live: Pick<LiveSessions, 'runLeg'>) {
  const { now, announce, runtimeOf } = registry;
  const { runLeg } = live;

  /** What the session's pause waits for, and how far answering it got. */
  const pendingInfo = (rt: Runtime): PendingTools | null => {
    const pending = rt.data.pendingTools();
    if (!pending) return null;
    const run = rt.run;
    const dialect = selfContinuing(rt.data, pending);
    const common = {
      leg: pending.leg,
      block: pending.block.id,
      agentUuid: pending.agentUuid,
      tools: toPendingTools(pending.block.pendingTools ?? []),
      answered: rt.ledger.state(pendingSetKey(pending.leg, pending.block.id)),
    };
    if (dialect)
      return { ...common, defaultPath: run ? pathOf(run.url) : '', defaultExtraBody: {}, continuedBy: dialect.label };
    return {
      ...common,
      defaultPath: run ? defaultToolResultsPath(run.url) : '/agent/tool_results',
      defaultExtraBody: run ? defaultExtraBody(run.body) : {},
    };
  };

  /** In a replay, answering checks the results and plays the recorded continuation. */
  const answerReplay = (rt: Runtime, pending: Pending, results: readonly ToolResult[]): { leg: number } => {
    const problem = checkResults(pending.block.pendingTools ?? [], results);
    if (problem) throw new Error(problem);
    const key = pendingSetKey(pending.leg, pending.block.id);
    rt.ledger.claim(key, {});
    rt.ledger.settle(key, 'sent', 'the recorded continuation plays');
    rt.replay?.continueAfterAnswer();
    announce();
    return { leg: pending.leg + 1 };
  };

  function sendToolResults({ sessionId, results, path, extraBody, resend, allowMismatch }: SendToolResultsRequest): {
    leg: number;
  } {
    const rt = runtimeOf(sessionId);
    const data = rt.data;
    if (rt.current)
      throw new Error(
        'The stream is still running; tool results can be sent once it pauses on awaiting_frontend_tools.',
      );
    const pending = data.pendingTools();
    if (!pending) throw new Error('This session is not waiting for frontend tool results.');
    if (rt.replay) return answerReplay(rt, pending, results);
    if ((data.source.kind !== 'live' && !rt.answerable) || !rt.run) {
      throw new Error(
        'This session was opened from a file, so there is no live run to answer. Replay it to play the recorded continuation, or use `stream-inspector answer FILE` with the credentials.',
      );
    }
    if (!allowMismatch) {
      const problem = checkResults(pending.block.pendingTools ?? [], results);
      if (problem) throw new Error(problem);
    }
    const dialect = selfContinuing(data, pending);
    if (dialect && (path !== undefined || extraBody !== undefined))
      throw new Error(
        `This run is continued as a ${dialect.label} frontend continues it: the same request again with the answers, so there is no path or extra body to set.`,
      );
    const request = dialect?.clientTools
      ? buildClientToolRequest({
          run: rt.run,
          previousBody: data.legs[pending.leg]?.request?.body ?? rt.run.body,
          calls: pending.block.pendingTools ?? [],
          pause: pending.block.parsed,
          results,
          continuation: dialect.clientTools,
        })
      : buildToolResultsRequest({
          run: rt.run,
          agentUuid: pending.agentUuid,
          results,
          ...(path !== undefined ? { path } : {}),
          ...(extraBody !== undefined ? { extraBody } : {}),
        });
    const key = pendingSetKey(pending.leg, pending.block.id);
    rt.ledger.claim(key, { resend: resend === true });
    const action: RecordedAction = {
      kind: 'tool-results',
      at: now(),
      leg: pending.leg,
      body: rt.mask(request.recorded.body ?? ''),
      url: rt.mask(request.recorded.url),
    };
    rt.actions.push(action);
    rt.recorder?.action(action);
    const leg = runLeg(rt, 'tool-results', request, (ended, { outcome }) => {
      // Failed only if the server certainly did not continue the run; anything else counts as sent.
      if (!ended.accepted())
        rt.ledger.settle(
          key,
          'failed',
          outcome.failure?.message ?? `the server answered ${outcome.status ?? 'nothing'}`,
        );
      else if (firstContentIsErrorFrame(data, ended.leg))
        rt.ledger.settle(key, 'failed', 'the server answered with an error frame');
      else rt.ledger.settle(key, 'sent', `the continuation is leg ${ended.leg}`);
    });
    announce();
    return { leg: leg.leg };
  }

  /**
   * Lets a session opened from a recording answer its pause against the live server, with
   * credentials the user supplies (recordings keep none): `stream-inspector answer FILE -H …`.
   */
  function attachRun({
    sessionId,
    headers,
    url,
  }: {
    sessionId: string;
    headers: [string, string][];
    url?: string;
  }): void {
    const rt = runtimeOf(sessionId);
    const recorded = rt.data.legs[0]?.request;
    if (!recorded) throw new Error('The file has no recorded request to answer');
    rt.run = { method: recorded.method, url: url ?? recorded.url, headers, body: recorded.body };
    rt.answerable = true;
  }

  return { pendingInfo, sendToolResults, attachRun };
}

/** The continuation's first envelope is the router's error frame: the server rejected the results. */
function firstContentIsErrorFrame(data: SessionStore, leg: number): boolean {
  for (let seq = data.legs[leg]?.firstEnvelope ?? data.envelopeCount; seq < data.envelopeCount; seq++) {
    const envelope = data.envelope(seq);
    if (!envelope || envelope.leg < leg) continue;
    if (envelope.leg > leg) return false;
    if (envelope.type === KIND.meta_init) continue;
    return envelope.control === 'error-frame';
  }
  return false;
}
