import { resumeErrorFrame } from './error-frames';
import type { Format, FrontendResult, Pause, Script } from './script';

interface PausedRun {
  pause: Pause;
  /** The format the run streamed in: the continuation uses it unless the request names another. */
  format: Format;
}

/** Python's repr of a set of strings (sorted here; CPython's order is arbitrary). */
function pySet(ids: Iterable<string>): string {
  const sorted = [...new Set(ids)].sort();
  return sorted.length === 0 ? 'set()' : `{${sorted.map((id) => `'${id}'`).join(', ')}}`;
}

/**
 * Agents paused on frontend tools, by agent UUID, in memory. Resuming validates the results
 * as the legacy agent does (`continue_with_tool_results`): an agent that is not paused, or
 * tool_use ids that differ from the pending set, end in an error frame and leave the pause
 * in place so the client can retry.
 */
export class SessionStore {
  private readonly paused = new Map<string, PausedRun>();

  park(pause: Pause, format: Format): void {
    this.paused.set(pause.agent, { pause, format });
  }

  /** A new run of the same agent discards a pause it left behind. */
  forget(agentUuid: string): void {
    this.paused.delete(agentUuid);
  }

  formatOf(agentUuid: string): Format | undefined {
    return this.paused.get(agentUuid)?.format;
  }

  resume(agentUuid: string, results: readonly FrontendResult[]): Script {
    const run = this.paused.get(agentUuid);
    if (!run) return { steps: [resumeErrorFrame('Agent is not awaiting frontend tools', 1453)] };
    const pending = run.pause.tools.map((t) => t.tool_use_id);
    const given = results.map((r) => r.tool_use_id);
    const same = new Set(pending).size === new Set(given).size && given.every((id) => pending.includes(id));
    if (!same)
      return {
        steps: [
          resumeErrorFrame(
            `Tool result mismatch. Expected tool_use_ids: ${pySet(pending)}, got: ${pySet(given)}`,
            1469,
          ),
        ],
      };
    this.paused.delete(agentUuid);
    return run.pause.resume(results);
  }
}
