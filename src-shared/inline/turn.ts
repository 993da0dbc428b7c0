import type { Open } from './segments';
import { FILE_TOOLS } from './tag-vocabulary';
import type { InlineOptions, InlineRuleId } from './types';

/**
 * The turn-level checks of the XML tool protocol (docs/protocols/inline-tool-tags.md): exactly
 * one action per turn, nothing after it, and the parameters each action requires. The parser
 * tells it what it reads; it reports what breaks the protocol, once where the protocol says so.
 */
export interface TurnChecks {
  /** A `<thinking>` block opened at `start`: the turn speaks the protocol. */
  reasoning: (start: number) => void;
  /** An action (a tool tag or `<attempt_completion>`) opened at `start`. */
  beginAction: (name: string, start: number) => void;
  /** A segment ended at `end`; an action's end is where the turn should stop. */
  segmentEnded: (seg: Open, complete: boolean, end: number) => void;
  /** Something (`what`) starts at `start`: after the turn's action, an orchestrator never reads it. */
  checkAfterAction: (start: number, what: string) => void;
  /** The block ended at `end`: a turn that spoke the protocol needs an action. */
  end: (end: number) => void;
}

type Report = (rule: InlineRuleId, message: string, offset: number) => void;

export function createTurnChecks(
  report: Report,
  tools: ReadonlyMap<string, InlineOptions['tools'][number]>,
): TurnChecks {
  let protocolSeen = false;
  let actions = 0;
  let afterActionReported = false;
  let lastActionEnd = -1;

  function checkAfterAction(start: number, what: string): void {
    if (lastActionEnd < 0 || afterActionReported) return;
    afterActionReported = true;
    report(
      'inline.text-after-action',
      `${what} follows the turn's terminal action (ended at offset ${lastActionEnd}); an orchestrator stops reading at the action and never sees it.`,
      start,
    );
  }

  function checkRequired(seg: Open, end: number): void {
    const required =
      seg.family === 'completion'
        ? ['result']
        : seg.family === 'action'
          ? (tools.get(seg.tag)?.required ?? [])
          : seg.family === 'file_tool' && FILE_TOOLS[seg.type]?.needsPath
            ? ['path']
            : [];
    const what = seg.family === 'file_tool' ? `<tool name="${seg.type}">` : `<${seg.tag}>`;
    for (const name of required) {
      if (name in seg.params) continue;
      report(
        'inline.missing-param',
        `${what} has no ${seg.family === 'file_tool' ? `<arg name="${name}">` : `<${name}>`} parameter, which ${seg.family === 'action' ? 'the tool configuration' : 'the protocol'} requires.`,
        end,
      );
    }
  }

  return {
    reasoning(start) {
      protocolSeen = true;
      checkAfterAction(start, 'a <thinking> block');
    },
    beginAction(name, start) {
      protocolSeen = true;
      actions++;
      if (actions > 1) {
        report(
          'inline.multiple-actions',
          `<${name}> is action number ${actions} of this turn; the protocol asks for exactly one tool call or one <attempt_completion> per response, and an orchestrator acts on the first only.`,
          start,
        );
        afterActionReported = true;
      }
    },
    segmentEnded(seg, complete, end) {
      if (seg.family === 'action' || seg.family === 'completion') lastActionEnd = end;
      if (complete) checkRequired(seg, end);
    },
    checkAfterAction,
    end(end) {
      if (protocolSeen && actions === 0) {
        report(
          'inline.no-action',
          `The turn has no action: the protocol asks for exactly one tool call (${[...tools.keys()].map((n) => `<${n}>`).join(', ')}) or <attempt_completion> per response.`,
          end,
        );
      }
    },
  };
}
