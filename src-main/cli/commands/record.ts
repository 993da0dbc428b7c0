import { resolve } from 'node:path';
import type { Failure, RequestBody, SessionSummary } from '../../../src-shared/contract/payloads';
import { isBadEnd } from '../../../src-shared/pipeline/end-status';
import { redactUrl } from '../../../src-shared/recording/redact';
import { countOf } from '../../../src-shared/text/count';
import { buildRequest } from '../../services/connection/request-spec';
import { FINDING_EXAMPLES } from '../../services/recording/counting-session';
import { readRegularTextFile } from '../../services/importers/regular-file';
import { startLiveRecording, type LiveRecordingResult } from '../../services/recording/live-recording';
import type { SessionService } from '../../services/sessions/session-service';
import { parse, parseFormat } from '../args';
import { printJson, UsageError, type CliIo, type Command } from '../io';
import { formatRuleCount, type RuleCount } from '../report';
import { sortRuleCounts } from '../report-collector';
import { startProgress } from '../progress';

/**
 * `record URL [-X METHOD] [-H 'Name: value']… [-d BODY|@FILE] -o FILE`: opens a live stream
 * like curl and records it (docs/recording-format.md) as it arrives, with secrets redacted.
 * Progress and the outcome go to stderr; nothing printed carries a header value.
 */

/** `Name: value` → [name, value] (curl's -H syntax). */
export function parseHeaderArg(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError(`-H takes 'Name: value', not '${text}'`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** curl's -d: `@FILE` reads the body from a file; JSON text is sent as JSON, anything else raw. */
export async function parseBodyArg(value: string | undefined, io: CliIo): Promise<RequestBody | undefined> {
  if (value === undefined) return undefined;
  const text = value.startsWith('@') ? await readRegularTextFile(resolve(io.cwd, value.slice(1))) : value;
  try {
    JSON.parse(text);
    return { kind: 'json', text };
  } catch {
    return { kind: 'raw', text };
  }
}

const LIVE_STATES = new Set(['connecting', 'streaming', 'loading']);

/** Resolves with the session's summary once it is no longer receiving (or it was closed: null). */
export function untilSettled(
  service: SessionService,
  sessionId: string,
  done: (s: SessionSummary) => boolean = (s) => !LIVE_STATES.has(s.state),
): Promise<SessionSummary> {
  return new Promise((resolvePromise, reject) => {
    const check = (list: SessionSummary[]): void => {
      const summary = list.find((s) => s.id === sessionId);
      if (!summary) {
        off();
        reject(new Error('The session was closed'));
      } else if (done(summary)) {
        off();
        resolvePromise(summary);
      }
    };
    const off = service.onSessionsChanged(check);
    void service.listSessions().then(check);
  });
}

/** What describeOutcome and exitCodeFor read of a session's summary (record has no session: it counts). */
type Outcome = Pick<
  SessionSummary,
  'state' | 'end' | 'envelopes' | 'bytes' | 'legs' | 'diagnostics' | 'failure' | 'awaitingTools'
>;

/**
 * One paragraph saying how a session ended, for stderr, each reason once. A server that
 * answered with an error status or no stream is said to have answered (it was reached: "failed
 * to connect" would send the user to check the network, not the URL or credentials), with the
 * start of what it sent.
 */
export function describeOutcome(summary: Outcome): string {
  const { envelopes, bytes, legs, diagnostics: d, failure, end } = summary;
  const counts = `${countOf(envelopes, 'envelope')}, ${countOf(bytes, 'byte')} in ${countOf(legs, 'leg')}; diagnostics: ${countOf(d.error, 'error')}, ${countOf(d.warning, 'warning')}, ${d.info} info.`;
  const answered = (end?.kind ?? 'failed') === 'failed' ? answeredLine(failure) : undefined;
  const lines = answered
    ? [answered, `Decoded: ${counts}`]
    : [`${end ? `${end.label} (${end.reason})` : summary.state}: ${counts}`];
  // The end status's reason is the failure's message when the failure ended the session.
  if (failure && !lines[0]?.includes(failure.message)) lines.push(failure.message);
  if (failure?.body) lines.push('--- response body ---', ...bodyExcerpt(failure.body, failure.bodyTruncated === true));
  if (summary.awaitingTools)
    lines.push(
      'The run is paused on awaiting_frontend_tools: answer it with `stream-inspector answer FILE --result TOOL_USE_ID=TEXT -H …`.',
    );
  return `${lines.join('\n')}\n`;
}

/** What the server answered instead of a stream, when a response arrived (its status is known). */
function answeredLine(failure: Failure | undefined): string | undefined {
  if (failure?.status === undefined) return undefined;
  return failure.kind === 'http-status'
    ? `The server answered ${failure.message}`
    : `The server answered, with no stream to decode: ${failure.message}`;
}

/** How much of a rejected response's body stderr shows: a JSON error whole, an HTML page's head. */
const BODY_EXCERPT = { characters: 500, lines: 12 };

/**
 * The start of a body as text (terminalIo escapes its control characters when printed), cut
 * never inside a surrogate pair, and what was left out (`truncated`: the connection kept the
 * first part of a larger body).
 */
function bodyExcerpt(body: string, truncated: boolean): string[] {
  let head = body.slice(0, BODY_EXCERPT.characters).split('\n').slice(0, BODY_EXCERPT.lines).join('\n');
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const notes = [
    ...(head.length < body.length
      ? [`${head.length} of ${countOf(body.length, 'character')} shown; --json has them all`]
      : []),
    ...(truncated ? ['the server sent more than the inspector keeps'] : []),
  ];
  return notes.length > 0 ? [head, `… (${notes.join('; ')})`] : [head];
}

/** 2 when the request failed, 1 when the stream is truncated, ended by an error or has error findings. */
export function exitCodeFor(summary: Outcome): number {
  if (summary.state === 'failed' && (summary.end?.kind ?? 'failed') === 'failed') return 2;
  return summary.diagnostics.error > 0 || (summary.end !== undefined && isBadEnd(summary.end.kind)) ? 1 : 0;
}

export const record: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    request: { type: 'string', short: 'X' },
    header: { type: 'string', short: 'H', multiple: true },
    data: { type: 'string', short: 'd' },
    output: { type: 'string', short: 'o' },
    format: { type: 'string' },
    'idle-timeout': { type: 'string' },
    'any-content-type': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('expected exactly one URL');
  if (!values.output) throw new UsageError('-o FILE is required: where to write the recording');
  const body = await parseBodyArg(values.data, io);
  const idle = values['idle-timeout'];
  if (idle !== undefined && !/^\d+(\.\d+)?$/.test(idle))
    throw new UsageError(`--idle-timeout takes seconds, not '${idle}'`);
  const path = resolve(io.cwd, values.output);
  const built = buildRequest({
    url: positionals[0],
    method: values.request ?? (body ? 'POST' : 'GET'),
    headers: (values.header ?? []).map(parseHeaderArg),
    ...(body ? { body } : {}),
    ...(idle !== undefined ? { timeouts: { idleMs: Number(idle) * 1000 } } : {}),
    ...(values['any-content-type'] ? { acceptAnyContentType: true } : {}),
  });

  const recording = await startLiveRecording(built, path, {
    format: parseFormat(values.format) ?? 'auto',
    onResponse: (status, accepted) => {
      if (accepted) io.stderr(`HTTP ${status}: streaming…\n`);
    },
  });
  const source = { kind: 'live', method: built.spec.method, url: redactUrl(built.spec.url.href) } as const;
  io.stderr(`Recording ${source.method} ${source.url} to ${path} (Ctrl-C stops)\n`);
  void io.interrupted().then((signal) => recording.stop(signal === 'SIGTERM' ? 'terminated' : 'user'));
  const progress = startProgress(io, { read: () => recording.progress() });
  const result = await recording.done;
  progress.stop();
  const summary = recordSummary(result, source, path);
  if (values.json) printJson(io, summary);
  io.stderr(describeOutcome(summary));
  io.stderr(formatFindings(summary.findings));
  // A stream that ended well does not make a recording that failed to be written a success.
  if (result.recordingFailed) {
    io.stderr(`The recording ${path} is incomplete: it holds only what was written before writing failed.\n`);
    return 2;
  }
  io.stderr(`Recording written to ${path}\n`);
  return summary.state === 'stopped' ? 0 : exitCodeFor(summary);
};

/**
 * What `record` prints (and `--json` writes): a live session's summary, with the findings per
 * rule, each with its count and first examples (a long run may have millions; `inspect FILE`
 * lists them all).
 */
function recordSummary(result: LiveRecordingResult, source: SessionSummary['source'], path: string) {
  const { counted } = result;
  return {
    source,
    recordingPath: path,
    state: result.state,
    legs: counted.legs.length,
    envelopes: counted.envelopes,
    bytes: result.bytes,
    frames: counted.frames,
    format: counted.legs.find((leg) => leg.format !== null)?.format ?? null,
    diagnostics: counted.severities,
    ...(result.httpStatus !== undefined ? { httpStatus: result.httpStatus } : {}),
    awaitingTools: counted.blockFacts.awaitingTools,
    ...(result.failure ? { failure: result.failure } : {}),
    end: result.end,
    envelopeTypes: counted.envelopeTypes,
    findings: sortRuleCounts(
      counted.findings.map(({ rule, severity, count, examples }) => ({
        rule,
        severity,
        count,
        first: examples[0]?.message ?? '',
        examples: examples.map((d) => ({ message: d.message, at: d.at })),
      })),
    ),
  };
}

/** The findings per rule, as `inspect` lists them. */
function formatFindings(findings: readonly RuleCount[]): string {
  if (findings.length === 0) return 'Findings: none.\n';
  const head = `Findings by rule (every one counted; the first ${FINDING_EXAMPLES} of each in --json, all of them from \`stream-inspector inspect FILE\`):`;
  return `${[head, ...findings.map(formatRuleCount)].join('\n')}\n`;
}
