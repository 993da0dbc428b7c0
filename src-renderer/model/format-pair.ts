import { isWireFormat } from '../../src-shared/agents/wire-formats';
import type { RequestInfo, SessionSummary, Unsubscribe } from '../../src-shared/contract';
import type { ReadableStore, SessionsSnapshot } from './types';

/**
 * "Run in xml and json, then diff": which sessions offer it, and waiting for the pair to end.
 * Main sets the format where the request asks for one (`?format=` or a `format` field of the
 * JSON body, see src-main/services/sessions/sources/format-runs.ts); the header offers the action for a
 * live session that has ended, whose stream is one of the upstream agent's wire formats (a
 * provider API such as Anthropic Messages has one format only: running it "in xml" would send
 * the same request twice) and whose request has either place.
 */

/** The formats run, in the order they are diffed (xml on the left, as the older format). */
export const FORMAT_PAIR = ['xml', 'json'] as const;

export function offersFormatPair(
  summary: Pick<SessionSummary, 'source' | 'state' | 'format'>,
  request: RequestInfo | null,
): boolean {
  if (summary.source.kind !== 'live' || !request || summary.state === 'connecting' || summary.state === 'streaming')
    return false;
  if (summary.format === null || !isWireFormat(summary.format)) return false;
  try {
    if (new URL(request.url).searchParams.has('format')) return true;
  } catch {
    return false;
  }
  try {
    const body: unknown = JSON.parse(request.body ?? '');
    return typeof body === 'object' && body !== null && !Array.isArray(body);
  } catch {
    return false;
  }
}

const ENDED: ReadonlySet<SessionSummary['state']> = new Set(['complete', 'stopped', 'failed']);

/**
 * Calls `then` once every one of `ids` has ended (complete, stopped or failed), with their
 * summaries in the order of `ids`; never when one of them is closed first (listed once, then
 * gone: the list may not hold a session just started yet). Returns a function that stops
 * waiting.
 */
export function whenAllEnded(
  sessions: ReadableStore<SessionsSnapshot>,
  ids: readonly string[],
  then: (ended: SessionSummary[]) => void,
): Unsubscribe {
  let done = false;
  const listed = new Set<string>();
  const check = (): void => {
    if (done) return;
    const list = sessions.getSnapshot().list;
    const found = ids.map((id) => list.find((s) => s.id === id));
    for (const [i, id] of ids.entries()) {
      if (found[i]) listed.add(id);
      else if (listed.has(id)) return stop();
    }
    if (found.some((s) => s === undefined)) return;
    const summaries = found as SessionSummary[];
    if (!summaries.every((s) => ENDED.has(s.state))) return;
    stop();
    then(summaries);
  };
  const unsubscribe = sessions.subscribe(check);
  function stop(): void {
    done = true;
    unsubscribe();
  }
  check();
  return stop;
}
