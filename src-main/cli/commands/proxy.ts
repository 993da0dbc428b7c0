import { resolve } from 'node:path';
import type { ProxyExchange, SessionState } from '../../../src-shared/contract/payloads';
import { createDefaultSessionService } from '../../hosts/default-service';
import { parse, parsePort } from '../args';
import { UsageError, type Command } from '../io';
import { terminalSafe } from '../../../src-shared/text/terminal';

/** Where `proxy` writes its recordings unless told otherwise. */
export const DEFAULT_PROXY_RECORD_DIR = 'proxy-recordings';

const ENDED: ReadonlySet<SessionState> = new Set(['complete', 'stopped', 'failed']);

/**
 * `proxy --listen PORT --target URL [--record-dir DIR]`: a reverse proxy on 127.0.0.1 between a
 * frontend and its agent server. Every request is forwarded unchanged and every response
 * streamed back as it arrives; each event stream is recorded (secrets redacted) into DIR as
 * its own session, a tool_results continuation as the next leg of its run. One line per
 * finished request; Ctrl-C stops.
 */
export const proxy: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    listen: { type: 'string' },
    target: { type: 'string' },
    'record-dir': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.target === undefined)
    throw new UsageError('--target URL is required (the agent server, e.g. http://127.0.0.1:8787)');
  if (values.listen === undefined) throw new UsageError('--listen PORT is required (0 picks a free one)');
  const recordDir = resolve(io.cwd, values['record-dir'] ?? DEFAULT_PROXY_RECORD_DIR);
  const service = createDefaultSessionService();
  const printed = new Set<number>();
  const recordings = new Map<string, string>();
  const closing = new Set<string>();
  service.onSessionsChanged((list) => {
    for (const s of list) {
      if (s.recordingPath) recordings.set(s.id, s.recordingPath);
      // Nobody views a session here: once its recording is written it is closed, so its spool
      // files, descriptors and memory go (a paused run stays open for its tool_results leg).
      if (ENDED.has(s.state) && !s.awaitingTools && !closing.has(s.id)) {
        closing.add(s.id);
        queueMicrotask(() => void service.closeSession({ sessionId: s.id }).finally(() => closing.delete(s.id)));
      }
    }
  });
  // A session that cannot keep its stream (the temp folder is full) fails its recording, which
  // says so in its last record; the user hears it here, not only from the file.
  service.onError((error) => {
    const recording = error.sessionId ? recordings.get(error.sessionId) : undefined;
    io.stderr(
      `${terminalSafe(`error: ${recording ? `the recording ${recording} is incomplete: ` : ''}${error.message}`, { multiline: false })}\n`,
    );
  });
  service.onProxyChanged((state) => {
    for (const e of state?.exchanges ?? []) {
      // A stream's line waits for its session (opening the recording may take longer than a fast stream).
      const waiting = e.contentType?.startsWith('text/event-stream') && !e.sessionId && !e.error;
      if (e.endedAt === undefined || waiting || printed.has(e.id)) continue;
      printed.add(e.id);
      io.stdout(`${exchangeLine(e, e.sessionId ? recordings.get(e.sessionId) : undefined)}\n`);
    }
  });
  try {
    const state = await service.startProxy({ port: parsePort(values.listen, 0), target: values.target, recordDir });
    io.stdout(
      `Proxy on ${state.url} → ${state.target}; event streams recorded in ${recordDir}\nPoint the frontend at the proxy URL. Press Ctrl-C to stop.\n`,
    );
    await io.interrupted();
  } finally {
    // Stop forwarding at once, then finish every recording together: each ends with a sync to
    // disk, which a busy disk can make slow, and one after the other they would add up.
    await service.stopProxy();
    await Promise.all((await service.listSessions()).map((s) => service.closeSession({ sessionId: s.id })));
    await service.dispose();
  }
  return 0;
};

function exchangeLine(e: ProxyExchange, recording: string | undefined): string {
  const status = e.status === undefined ? '---' : String(e.status);
  const took = e.endedAt !== undefined ? `${Math.round(e.endedAt - e.startedAt)}ms` : '';
  const parts = [e.method.padEnd(6), e.path, '→', status, e.contentType ?? '', `${e.bytes} B`, took];
  if (e.sessionId) parts.push(`session ${e.sessionId}${recording ? ` → ${recording}` : ''}`);
  if (e.error) parts.push(`(${e.error})`);
  return terminalSafe(parts.filter(Boolean).join('  '), { multiline: false });
}
