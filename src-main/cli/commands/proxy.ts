import { resolve } from 'node:path';
import type { ProxyExchange } from '../../../src-shared/contract/payloads';
import { createDefaultSessionService } from '../../hosts/default-service';
import { parse, parsePort } from '../args';
import { UsageError, type Command } from '../io';
import { terminalSafe } from '../../../src-shared/text/terminal';

/** Where `proxy` writes its recordings unless told otherwise. */
export const DEFAULT_PROXY_RECORD_DIR = 'proxy-recordings';

/**
 * `proxy --listen PORT --target URL [--record-dir DIR]`: a reverse proxy on 127.0.0.1 between a
 * frontend and its agent server. Every request is forwarded unchanged and every response
 * streamed back as it arrives; each event stream is recorded (secrets redacted) into DIR as
 * its own session, a tool_results continuation as the next leg of its run. One line per
 * finished request; Ctrl-C stops.
 */
export const proxy: Command = async (args, io) => {
  const { values, positionals } = parse(args, { listen: { type: 'string' }, target: { type: 'string' }, 'record-dir': { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.target === undefined) throw new UsageError('--target URL is required (the agent server, e.g. http://127.0.0.1:8787)');
  if (values.listen === undefined) throw new UsageError('--listen PORT is required (0 picks a free one)');
  const recordDir = resolve(io.cwd, values['record-dir'] ?? DEFAULT_PROXY_RECORD_DIR);
  const service = createDefaultSessionService();
  const printed = new Set<number>();
  const recordings = new Map<string, string>();
  service.onSessionsChanged((list) => {
    for (const s of list) if (s.recordingPath) recordings.set(s.id, s.recordingPath);
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
    io.stdout(`Proxy on ${state.url} → ${state.target}; event streams recorded in ${recordDir}\nPoint the frontend at the proxy URL. Press Ctrl-C to stop.\n`);
    await io.interrupted;
  } finally {
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
