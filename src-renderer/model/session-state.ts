import type { EndStatusPayload, ReplayState, SessionSource, SessionSummary } from '../../src-shared/contract';
import { decodedAs } from '../../src-shared/dialects/detection';
import { dialectLabel } from '../../src-shared/dialects/registry';
import type { Tone } from '../components/Badge';

/** How a session's state reads in the sidebar, the session header and recent sessions: its label, tone and tooltip. */

/**
 * The session's badge: while it receives, what it is doing ("paused" for a paused replay: from
 * its transport state where known, else from its summary); once it ended, its end status — "done" only for a stream that
 * ended with its terminal event and nothing left open.
 */
export function stateLabel(session: SessionSummary, replay?: Pick<ReplayState, 'playing'> | null): string {
  // What the pause waits for, once its status says (an approval, a paused turn); else tools.
  if (session.awaitingTools) return session.end?.kind === 'paused' ? session.end.label : 'awaiting tools';
  if (session.choosingHarEntries) return 'choose entries';
  if (session.source.kind === 'replay' && session.state === 'streaming')
    return replayPaused(session, replay) ? 'paused' : 'replaying';
  return session.end?.label ?? session.state;
}

/** A replay that is not playing: by its transport state where known, else by its summary. */
function replayPaused(session: SessionSummary, replay: Pick<ReplayState, 'playing'> | null | undefined): boolean {
  return (
    session.source.kind === 'replay' &&
    session.state === 'streaming' &&
    (replay ? !replay.playing : session.replayPaused === true)
  );
}

export const END_TONES: Record<EndStatusPayload['kind'], Tone> = {
  done: 'ok',
  error: 'error',
  incomplete: 'warning',
  truncated: 'warning',
  stopped: 'neutral',
  failed: 'failed',
  paused: 'accent',
  ended: 'neutral',
  cut: 'warning',
};

export function stateTone(session: SessionSummary, replay?: Pick<ReplayState, 'playing'> | null): Tone {
  if (session.awaitingTools || session.choosingHarEntries) return 'accent';
  if (replayPaused(session, replay)) return 'neutral';
  if (session.end) return END_TONES[session.end.kind];
  switch (session.state) {
    case 'streaming':
    case 'connecting':
    case 'loading':
      return 'live';
    case 'complete':
      return 'ok';
    case 'failed':
      return 'failed';
    case 'stopped':
      return 'neutral';
  }
}

/** The badge's tooltip: why the session ended as it did. */
export function stateTitle(session: SessionSummary): string | undefined {
  return session.end?.reason;
}

/** Titles made of a method and URL read better without the scheme in a narrow list. */
export function displayTitle(title: string): string {
  return title.replace(/^([A-Z]+ )?https?:\/\//, '$1');
}

/**
 * "Decoded as OpenAI Responses API — from the URL /v1/responses": the session's dialect and the
 * evidence that chose it; null until a dialect is decided.
 */
export function decodedAsLine(session: Pick<SessionSummary, 'format' | 'detection'>): string | null {
  if (session.format === null) return null;
  return decodedAs(dialectLabel(session.format, session.detection), session.detection);
}

/**
 * Where a file session's bytes come from, as its header says it: the path (or that it was
 * uploaded) and the importer, with the HAR entries opened and the check report that opened it.
 */
export function fileSourceLine(source: Extract<SessionSource, { kind: 'file' }>): string {
  const notes = [source.importer];
  if (source.entries) notes.push(`${source.entries.length === 1 ? 'entry' : 'entries'} ${source.entries.join(', ')}`);
  if (source.report !== undefined) notes.push(`opened from the check report ${baseName(source.report)}`);
  const file = source.copyOf
    ? `received from ${source.copyOf.method} ${source.copyOf.url}`
    : source.uploaded
      ? 'uploaded file'
      : source.path;
  return `${file} (${notes.join(', ')})`;
}

/** The last part of a path, POSIX or Windows. */
const baseName = (path: string): string => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
