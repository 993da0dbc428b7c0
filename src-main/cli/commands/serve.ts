import { MAX_SPEED, MIN_SPEED, type ReplaySpeed } from '../../services/replay/clock';
import type { RechunkOption } from '../../services/replay/rechunk';
import { startReplayServer } from '../../services/replay/replay-server';
import { HAR_ENTRY_ARG, parse, parseHarEntry, parsePort } from '../args';
import { openFile } from '../decode-file';
import { serveUntilInterrupted, UsageError, type Command } from '../io';

/** The port the replay server listens on by default (0 picks a free one). */
export const DEFAULT_REPLAY_PORT = 8788;

function parseSpeed(value: string | undefined): ReplaySpeed {
  if (value === undefined) return 1;
  if (value === 'fast') return 'fast';
  const speed = Number(value.replace(/^x/i, ''));
  if (!/^x?\d+(\.\d+)?$/i.test(value) || speed < MIN_SPEED || speed > MAX_SPEED)
    throw new UsageError(`--speed takes a factor from ${MIN_SPEED} to ${MAX_SPEED}, or fast, not '${value}'`);
  return speed;
}

function parseRechunk(value: string | undefined): RechunkOption | undefined {
  if (value === undefined) return undefined;
  if (value === 'byte') return 'byte';
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--rechunk takes N (bytes, 1 or more) or byte, not '${value}'`);
  return Number(value);
}

/** `--allow-origin`: `*` or an origin such as http://localhost:5173 (scheme, host and port, nothing else). */
function parseAllowOrigins(values: string[] | undefined): string[] {
  return (values ?? []).map((value) => {
    if (value === '*') return value;
    let origin: string | null = null;
    try {
      origin = new URL(value).origin;
    } catch {
      // Reported below.
    }
    if (origin === null || origin === 'null' || origin !== value.replace(/\/$/, ''))
      throw new UsageError(
        `--allow-origin takes an origin such as http://localhost:5173 (or * for any page), not '${value}'`,
      );
    return origin;
  });
}

/** Serves a recording (or any importable file) as a live SSE endpoint until interrupted. */
export const serve: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    port: { type: 'string' },
    speed: { type: 'string' },
    rechunk: { type: 'string' },
    ...HAR_ENTRY_ARG,
    'allow-origin': { type: 'string', multiple: true },
  });
  if (positionals[0] === '-' && positionals.length === 1)
    throw new UsageError('serve replays a FILE, read again for each request; standard input (-) can be read only once');
  if (positionals.length !== 1 || !positionals[0] || positionals[0] === '-')
    throw new UsageError('expected exactly one FILE (a recording, capture, envelope file or HAR)');
  const file = positionals[0];
  const speed = parseSpeed(values.speed);
  const rechunk = parseRechunk(values.rechunk);
  const harEntry = parseHarEntry(values['har-entry']);
  const allowOrigins = parseAllowOrigins(values['allow-origin']);
  const port = parsePort(values.port, DEFAULT_REPLAY_PORT);
  const server = await startReplayServer({
    // Opened as every command opens a FILE (a --har-entry that does not apply refused).
    source: await openFile(file, io, harEntry),
    port,
    speed,
    ...(rechunk !== undefined ? { rechunk } : {}),
    allowOrigins,
  });
  const { source } = server;
  const continuations = source.legs.length - 1;
  const pacing = speed === 'fast' ? 'as fast as possible' : `with the recorded timing ×${speed}`;
  const cutting =
    rechunk === undefined
      ? // Said of the chunking: a banner calling a complete stream "cut" would claim a cut-off.
        'in the chunks it was recorded in'
      : rechunk === 'byte'
        ? 're-chunked to one byte per write'
        : `re-chunked to ${rechunk}-byte writes`;
  const endpoints = [
    `Replaying ${file} (${source.kind}, ${source.legs.length} leg${source.legs.length === 1 ? '' : 's'}) on ${server.url}`,
    `  GET or POST ${server.url}/agent/run (any path)   leg 0, ${pacing}, ${cutting}`,
    continuations > 0
      ? `  POST ${server.url}/agent/tool_results         the next recorded continuation (${continuations})`
      : '  (no continuation legs: POST /agent/tool_results answers 409)',
    allowOrigins.length === 0
      ? '  Web pages of other origins may not read it (--allow-origin ORIGIN to let one)'
      : `  Web pages of ${allowOrigins.includes('*') ? 'any origin' : allowOrigins.join(', ')} may read it`,
    ...source.diagnostics.map((d) => `  ${d.severity}: ${d.message}`),
  ];
  return serveUntilInterrupted(io, endpoints, server);
};
