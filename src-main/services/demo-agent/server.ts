import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmitter, sseEvent, type Emitter } from './emit';
import { createSegmentEmitter } from './emit-segments';
import { realisticDelayMs, sleep, type Delay } from './pacing';
import {
  parseJsonBody,
  validateDemoOptions,
  validateRunRequest,
  validateToolResultsRequest,
  type DemoOptions,
  type Pace,
  type Validated,
  type ValidationIssue,
} from './request-validation';
import { DEFAULT_SCENARIO, SCENARIOS, scenarioById, selectScenario } from './scenarios/catalogue';
import { FORMATS, type Format, type Script } from './script';
import { seededRandom, seededUuid } from './seeded';
import { SessionStore } from './sessions';
import { SseResponse } from './sse-response';
import { FIREHOSE_DEFAULTS, readFirehosePace, streamFirehose } from './firehose-stream';
import { firehose } from './scenarios/firehose';
import { PROVIDER_APIS, providerApiFor, type ProviderApi } from './providers';
import { matchesPath } from './providers/types';
import { chooseProviderScenario, streamProviderScenario } from './providers/serve';
import { jsonText } from '../../../src-shared/json/tree';
import { isJsonObject } from '../../../src-shared/json/values';

export interface DemoAgentOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: '127.0.0.1';
  /** `realistic` (default) waits between events like a real agent; `fast` writes at once. */
  pace?: Pace;
  /** Agent UUIDs derive from it: the same seed and the same requests give byte-identical streams. */
  seed?: string;
  /** The wait used by realistic pacing. */
  delay?: Delay;
}

export interface DemoAgent {
  /** Base URL, e.g. `http://127.0.0.1:8787`; the run endpoint is `${url}/agent/run`. */
  url: string;
  port: number;
  /** Responses still streaming (a disconnected client's stream stops and leaves this count). */
  readonly openStreams: number;
  close(): Promise<void>;
}

/** Largest request body accepted (prompts may carry base64 images). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** FastAPI's compact JSON responses (`{"detail": …}` for errors). */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // A 422 echoes the request's values back, and a request may nest deeper than JSON.stringify's stack.
  const text = jsonText(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const unprocessable = (res: ServerResponse, issues: ValidationIssue[]): void => sendJson(res, 422, { detail: issues });

/** A request the demo cannot serve as asked, with a sentence saying why (FastAPI's HTTPException shape). */
const badRequest = (res: ServerResponse, detail: string): void => sendJson(res, 400, { detail });

type ReadRequest<T> =
  { ok: true; request: T; demo: DemoOptions; body: unknown } | { ok: false; issues: ValidationIssue[] };

/** The body as FastAPI would validate it, plus the demo's selectors; all issues in one 422. */
async function readRequest<T>(
  req: IncomingMessage,
  query: URLSearchParams,
  validate: (body: unknown) => Validated<T>,
  scenarioIds: readonly string[] | null,
): Promise<ReadRequest<T>> {
  const parsed = parseJsonBody(await readBody(req));
  if (!parsed.ok) return parsed;
  const request = validate(parsed.value);
  const demo = validateDemoOptions(parsed.value, query, scenarioIds);
  if (request.ok && demo.ok) return { ok: true, request: request.value, demo: demo.value, body: parsed.value };
  return { ok: false, issues: [...(request.ok ? [] : request.issues), ...(demo.ok ? [] : demo.issues)] };
}

function scenarioListing(): unknown {
  return {
    default: DEFAULT_SCENARIO.id,
    formats: FORMATS,
    scenarios: SCENARIOS.map((s) => ({
      id: s.id,
      title: s.title,
      summary: s.summary,
      keywords: s.keywords,
      samplePrompt: s.samplePrompt,
      demonstrates: s.demonstrates ?? {},
    })),
    providers: PROVIDER_APIS.map((api) => ({
      path: api.path,
      dialect: api.dialect,
      scenarios: api.scenarios.map((s) => ({ id: s.id, title: s.title, summary: s.summary })),
    })),
  };
}

/**
 * A local server speaking the upstream agent API (`POST /agent/run`, `POST /agent/tool_results`)
 * in the json, xml and raw formats, from deterministic scripted scenarios.
 */
export async function startDemoAgent(options: DemoAgentOptions = {}): Promise<DemoAgent> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 'demo-agent';
  const defaultPace = options.pace ?? 'realistic';
  const delay = options.delay ?? sleep;
  const sessions = new SessionStore();
  const streams = new Set<SseResponse>();
  let runs = 0;

  /** Writes an event stream; server shutdown closes it. */
  async function respond(res: ServerResponse, write: (out: SseResponse) => Promise<void>): Promise<void> {
    const out = new SseResponse(res);
    streams.add(out);
    try {
      await write(out);
    } finally {
      streams.delete(out);
    }
  }

  /** `format` null: the segment-event stream of the run's text (no pause can be answered there). */
  async function stream(
    res: ServerResponse,
    script: Script,
    format: Format | null,
    pace: Pace,
    paceSeed: string,
  ): Promise<void> {
    await respond(res, async (out) => {
      const emitter: Emitter = format === null ? createSegmentEmitter() : createEmitter(format);
      const random = seededRandom(paceSeed);
      for (const step of script.steps) {
        if (out.isClosed) return;
        const wait = pace === 'realistic' ? realisticDelayMs(step, random) : 0;
        if (wait > 0) await Promise.race([delay(wait), out.closed]);
        if (out.isClosed) return;
        // The agent persists its pause before announcing it: a client may resume at once.
        if (step.kind === 'awaiting_frontend_tools' && script.pause?.agent === step.agent && format !== null)
          sessions.park(script.pause, format);
        for (const op of emitter.emit(step)) {
          if (op.op === 'cut') {
            if (op.mode === 'end') out.end();
            else out.drop();
            return;
          }
          await out.write(op.op === 'event' ? sseEvent(op.data) : op.text);
        }
      }
      out.end();
    });
  }

  /** `segments`: the run's text as segment events instead of the agent API's format. */
  async function run(
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
    segments = false,
  ): Promise<void> {
    const read = await readRequest(
      req,
      query,
      validateRunRequest,
      SCENARIOS.map((s) => s.id),
    );
    if (!read.ok) return unprocessable(res, read.issues);
    const { request, demo } = read;
    const agentUuid = request.agent_uuid ?? seededUuid(seed, 'run', String(++runs));
    sessions.forget(agentUuid);
    const scenario = (demo.scenario ? scenarioById(demo.scenario) : undefined) ?? selectScenario(request.user_prompt);
    const ctx = {
      agentUuid,
      prompt: request.user_prompt,
      childUuid: (name: string) => seededUuid(agentUuid, 'subagent', name),
    };
    const paced = readFirehosePace(read.body, query);
    if (!paced.ok) return badRequest(res, paced.message);
    if (scenario === firehose) {
      const format = segments ? 'segments' : (demo.format ?? 'json');
      if (format !== 'json')
        return badRequest(
          res,
          `the firehose scenario streams the json format only (its three agents interleave, and only json names each event's agent), not ${format}`,
        );
      return respond(res, (out) => streamFirehose(out, ctx, { ...FIREHOSE_DEFAULTS, ...paced.pace }));
    }
    if (paced.pace.rate !== undefined || paced.pace.seconds !== undefined)
      return badRequest(
        res,
        `rate and duration pace the firehose scenario only; this request plays the "${scenario.id}" scenario`,
      );
    const script = scenario.build(ctx);
    await stream(res, script, segments ? null : (demo.format ?? 'json'), demo.pace ?? defaultPace, `${agentUuid}:run`);
  }

  async function toolResults(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const read = await readRequest(req, query, validateToolResultsRequest, null);
    if (!read.ok) return unprocessable(res, read.issues);
    const { request, demo } = read;
    const format = demo.format ?? sessions.formatOf(request.agent_uuid) ?? 'json';
    const script = sessions.resume(request.agent_uuid, request.tool_results);
    const paceSeed = `${request.agent_uuid}:resume:${request.tool_results.map((r) => r.tool_use_id).join(',')}`;
    await stream(res, script, format, demo.pace ?? defaultPace, paceSeed);
  }

  /** The provider APIs' routes (`POST /v1/messages`, `/v1/responses`, `/v1beta/models/{model}:streamGenerateContent`…): their streams from scripted scenarios. */
  async function provider(
    api: ProviderApi,
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ): Promise<void> {
    const parsed = parseJsonBody(await readBody(req));
    if (!parsed.ok) return unprocessable(res, parsed.issues);
    const demo = validateDemoOptions(
      parsed.value,
      query,
      api.scenarios.map((s) => s.id),
    );
    if (!demo.ok) return unprocessable(res, demo.issues);
    if (!api.streamsWithoutFlag && (!isJsonObject(parsed.value) || parsed.value['stream'] !== true)) {
      return sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'The demo serves streams only: send "stream": true.' },
      });
    }
    const chosen = chooseProviderScenario(api, demo.value.scenario, parsed.value);
    const scenario = api.answer?.(chosen, parsed.value) ?? chosen;
    await streamProviderScenario(api, res, scenario, { pace: demo.value.pace ?? defaultPace, query }, delay, streams);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const route = `${req.method ?? 'GET'} ${path}`;
    const routes: Record<string, (() => Promise<void>) | undefined> = {
      'POST /agent/run': () => run(req, res, url.searchParams),
      'POST /agent/tool_results': () => toolResults(req, res, url.searchParams),
      'POST /segments/run': () => run(req, res, url.searchParams, true),
      'GET /agent/scenarios': () => Promise.resolve(sendJson(res, 200, scenarioListing())),
      'GET /': () =>
        Promise.resolve(
          sendJson(res, 200, {
            name: 'stream-inspector demo agent',
            run: 'POST /agent/run',
            tool_results: 'POST /agent/tool_results',
            segments: 'POST /segments/run',
            scenarios: 'GET /agent/scenarios',
            providers: PROVIDER_APIS.map((api) => `POST ${api.path}${api.query ? `?${api.query}` : ''}`),
          }),
        ),
    };
    const providerApi = req.method === 'POST' ? providerApiFor(path, url.searchParams) : undefined;
    const handler = routes[route] ?? (providerApi && (() => provider(providerApi, req, res, url.searchParams)));
    if (handler) return handler();
    const allowed = Object.keys(routes)
      .filter((r) => r.endsWith(` ${path}`))
      .map((r) => r.split(' ')[0] ?? '');
    if (PROVIDER_APIS.some((api) => matchesPath(api, path))) allowed.push('POST');
    if (allowed.length > 0) return sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: allowed.join(', ') });
    return sendJson(res, 404, { detail: 'Not Found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else if (error instanceof BodyTooLarge) sendJson(res, 413, { detail: 'Request body too large' });
      else sendJson(res, 500, { detail: 'Internal Server Error' });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    port,
    get openStreams() {
      return streams.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of streams) s.destroy();
        server.closeAllConnections();
      }),
  };
}
