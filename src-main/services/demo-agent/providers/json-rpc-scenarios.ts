import { isJsonObject } from '../../../../src-shared/json/values';
import { CHART_PNG_BASE64 } from '../sample-image';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted JSON-RPC streams (docs/protocols/json-rpc.md): MCP's Streamable HTTP transport at
 * `POST /mcp` (priming event, `id:` lines, progress and logging before the response, a tool
 * error, a JSON-RPC error, a server request, a cut stream) and A2A's `message/stream` at
 * `POST /a2a` (a task's lifecycle with streamed artifacts, an input-required pause, a failed
 * task, a direct message, a cut stream). Responses answer id 1, the presets' request id;
 * `answerRequest` gives them the id of the request actually sent.
 */

const PROGRESS_TOKEN = 'weather-1';

/** Builds one MCP stream: each event `event: message`, numbered with `id:` lines unless `resumable` is false. */
class McpScript {
  private readonly events: ProviderEvent[] = [];

  constructor(
    private readonly name: string,
    private readonly resumable = true,
  ) {}

  private add(data: Record<string, unknown> | string): this {
    const id = this.resumable ? `${this.name}-${this.events.length}` : undefined;
    this.events.push({ event: 'message', data, ...(id === undefined ? {} : { id }) });
    return this;
  }

  /** MCP 2025-11-25: an event id and empty data, so the client can reconnect from here. */
  priming(): this {
    return this.add('');
  }

  progress(progress: number, message: string): this {
    return this.add({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: PROGRESS_TOKEN, progress, total: 3, message },
    });
  }

  log(level: string, data: unknown): this {
    return this.add({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'weather', data } });
  }

  request(id: string, method: string, params: Record<string, unknown>): this {
    return this.add({ jsonrpc: '2.0', id, method, params });
  }

  result(result: Record<string, unknown>): this {
    return this.add({ jsonrpc: '2.0', id: 1, result });
  }

  error(code: number, message: string): this {
    return this.add({ jsonrpc: '2.0', id: 1, error: { code, message } });
  }

  take(): ProviderEvent[] {
    return this.events;
  }
}

const WEATHER = { city: 'Paris', temperature_c: 18, conditions: 'light rain' };

export const MCP_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'mcp-tools-call',
    title: 'tools/call with progress',
    summary:
      'A priming event, three progress notifications and a log line, then the result: text, an image, a resource link and structured content.',
    events: new McpScript('call')
      .priming()
      .progress(1, 'Geocoding Paris')
      .log('info', 'Using the Météo-France feed')
      .progress(2, 'Fetching the forecast')
      .progress(3, 'Done')
      .result({
        content: [
          { type: 'text', text: 'Paris: 18 °C, light rain. Take an umbrella ☔.' },
          { type: 'image', data: CHART_PNG_BASE64, mimeType: 'image/png' },
          { type: 'resource_link', uri: 'weather://paris/hourly', name: 'hourly.json', mimeType: 'application/json' },
          { type: 'text', text: JSON.stringify(WEATHER) },
        ],
        structuredContent: WEATHER,
        isError: false,
      })
      .take(),
  },
  {
    id: 'mcp-initialize',
    title: 'initialize',
    summary: 'The initialize response: protocol version, capabilities and server info.',
    events: new McpScript('init')
      .priming()
      .result({
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: true }, logging: {} },
        serverInfo: { name: 'demo-weather', title: 'Demo weather server', version: '1.0.0' },
        instructions: 'Call get_weather with a city.',
      })
      .take(),
  },
  {
    id: 'mcp-tools-list',
    title: 'tools/list',
    summary: 'The tools the server offers, with their input and output schemas.',
    events: new McpScript('list')
      .result({
        tools: [
          {
            name: 'get_weather',
            title: 'Weather',
            description: 'Current weather for a city',
            inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            outputSchema: {
              type: 'object',
              properties: {
                city: { type: 'string' },
                temperature_c: { type: 'number' },
                conditions: { type: 'string' },
              },
            },
          },
          {
            name: 'book_table',
            description: 'Books a restaurant table; asks the user for the time',
            inputSchema: { type: 'object', properties: { restaurant: { type: 'string' } } },
          },
        ],
      })
      .take(),
  },
  {
    id: 'mcp-tool-error',
    title: 'Tool error (isError)',
    summary: 'The tool fails and says so in its result (isError: true); the JSON-RPC exchange succeeds.',
    events: new McpScript('fail')
      .priming()
      .progress(1, 'Geocoding Atlantis')
      .log('warning', { error: 'geocoder returned no match', city: 'Atlantis' })
      .result({
        content: [{ type: 'text', text: 'Failed to fetch weather data: no city named Atlantis' }],
        isError: true,
      })
      .take(),
  },
  {
    id: 'mcp-rpc-error',
    title: 'JSON-RPC error',
    summary: 'The request fails at the protocol level: a JSON-RPC error response (-32601, method not found).',
    events: new McpScript('error').error(-32601, 'Method not found').take(),
  },
  {
    id: 'mcp-server-request',
    title: 'Server request (elicitation)',
    summary:
      'The tool asks the user through the client (elicitation/create), then answers once the client replied on its own POST.',
    events: new McpScript('book')
      .priming()
      .request('srv-1', 'elicitation/create', {
        message: 'What time should the table be booked for?',
        requestedSchema: { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] },
      })
      .log('info', 'Booking Chez Janou for 20:00')
      .result({ content: [{ type: 'text', text: 'Booked Chez Janou for 20:00, 2 people.' }] })
      .take(),
  },
  {
    id: 'mcp-cut',
    title: 'Cut stream',
    summary: 'Progress, then the connection drops before the response (no event ids: the stream cannot be resumed).',
    events: new McpScript('cut', false).progress(1, 'Geocoding Paris').progress(2, 'Fetching the forecast').take(),
    cut: true,
  },
];

/** Builds one A2A stream: every event a JSON-RPC response to request 1 (`data:` only, as a2a-sdk writes them). */
class A2aScript {
  private readonly events: ProviderEvent[] = [];

  constructor(
    private readonly taskId: string,
    private readonly contextId = 'ctx-demo',
  ) {}

  private add(result: Record<string, unknown>): this {
    this.events.push({ event: '', data: { jsonrpc: '2.0', id: 1, result } });
    return this;
  }

  task(prompt: string): this {
    return this.add({
      kind: 'task',
      id: this.taskId,
      contextId: this.contextId,
      status: { state: 'submitted', timestamp: '2025-06-01T12:00:00.000Z' },
      history: [
        { kind: 'message', role: 'user', messageId: `${this.taskId}-q`, parts: [{ kind: 'text', text: prompt }] },
      ],
    });
  }

  status(state: string, said?: string, final = false): this {
    return this.add({
      kind: 'status-update',
      taskId: this.taskId,
      contextId: this.contextId,
      status: {
        state,
        timestamp: '2025-06-01T12:00:01.000Z',
        ...(said === undefined
          ? {}
          : {
              message: {
                kind: 'message',
                role: 'agent',
                messageId: `${this.taskId}-${state}`,
                parts: [{ kind: 'text', text: said }],
              },
            }),
      },
      final,
    });
  }

  /** One artifact streamed in chunks: the first starts it, the others append, the last says so. */
  artifact(artifactId: string, name: string, chunks: readonly string[], last = true): this {
    chunks.forEach((text, i) =>
      this.add({
        kind: 'artifact-update',
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: { artifactId, ...(i === 0 ? { name } : {}), parts: [{ kind: 'text', text }] },
        append: i > 0,
        lastChunk: last && i === chunks.length - 1,
      }),
    );
    return this;
  }

  data(artifactId: string, name: string, data: Record<string, unknown>): this {
    return this.add({
      kind: 'artifact-update',
      taskId: this.taskId,
      contextId: this.contextId,
      artifact: { artifactId, name, parts: [{ kind: 'data', data }] },
      append: false,
      lastChunk: true,
    });
  }

  message(text: string): this {
    return this.add({ kind: 'message', role: 'agent', messageId: 'msg-direct', parts: [{ kind: 'text', text }] });
  }

  take(): ProviderEvent[] {
    return this.events;
  }
}

const ITINERARY = [
  'Day 1: the Louvre in the morning, ',
  'a walk along the Seine, ',
  'dinner in the Marais.\n',
  'Day 2: Montmartre and the Sacré-Cœur.',
];

export const A2A_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'a2a-task',
    title: 'Task: submitted → working → artifacts → completed',
    summary:
      'A task streams its lifecycle: a status message, a text artifact in four chunks, a data artifact, completed (final).',
    events: new A2aScript('task-paris')
      .task('Plan two days in Paris')
      .status('working', 'Planning your trip…')
      .artifact('itinerary', 'itinerary.md', ITINERARY)
      .data('budget', 'budget.json', { currency: 'EUR', total: 420, items: 6 })
      .status('completed', undefined, true)
      .take(),
  },
  {
    id: 'a2a-input-required',
    title: 'Input required',
    summary: 'The task pauses for the user: input-required, with the question, as the final status.',
    events: new A2aScript('task-flight')
      .task('Book me a flight to Lisbon')
      .status('working', 'Looking at flights…')
      .status('input-required', 'Which day do you want to fly, and from which airport?', true)
      .take(),
  },
  {
    id: 'a2a-failed',
    title: 'Failed task',
    summary: 'The task fails after a first chunk: failed, with the reason, as the final status.',
    events: new A2aScript('task-quota')
      .task('Summarise this 400-page PDF')
      .status('working', 'Reading the document…')
      .artifact('summary', 'summary.md', ['Chapter 1 introduces '], false)
      .status('failed', 'The document service refused the request: quota exceeded.', true)
      .take(),
  },
  {
    id: 'a2a-message',
    title: 'Direct message (no task)',
    summary: 'The agent answers at once with a Message, which is the whole answer: no task is created.',
    events: new A2aScript('none').message('Bonjour! Paris is in the Central European Time zone (UTC+1).').take(),
  },
  {
    id: 'a2a-cut',
    title: 'Cut stream',
    summary: 'The task starts streaming its artifact, then the connection drops before the final status.',
    events: new A2aScript('task-cut')
      .task('Plan two days in Paris')
      .status('working')
      .artifact('itinerary', 'itinerary.md', ITINERARY.slice(0, 2), false)
      .take(),
    cut: true,
  },
];

const METHOD_SCENARIOS: Readonly<Record<string, string>> = {
  initialize: 'mcp-initialize',
  'tools/list': 'mcp-tools-list',
};

/** The MCP scenario a request asks for by its method (and the tool a tools/call names); unknown methods get the error. */
export function chooseMcpScenario(body: unknown): string | undefined {
  if (!isJsonObject(body) || typeof body['method'] !== 'string') return undefined;
  const method = body['method'];
  if (method !== 'tools/call') return METHOD_SCENARIOS[method] ?? 'mcp-rpc-error';
  const params = isJsonObject(body['params']) ? body['params'] : {};
  const city = isJsonObject(params['arguments']) ? params['arguments']['city'] : undefined;
  if (params['name'] === 'book_table') return 'mcp-server-request';
  return typeof city === 'string' && city.toLowerCase() === 'atlantis' ? 'mcp-tool-error' : 'mcp-tools-call';
}

/** The A2A scenario whose id the user's message names (`…a2a-failed…`), else the default. */
export function chooseA2aScenario(body: unknown): string | undefined {
  const params = isJsonObject(body) && isJsonObject(body['params']) ? body['params'] : {};
  const message = isJsonObject(params['message']) ? params['message'] : {};
  const parts = Array.isArray(message['parts']) ? message['parts'] : [];
  const text = parts.map((p: unknown) => (isJsonObject(p) && typeof p['text'] === 'string' ? p['text'] : '')).join(' ');
  return A2A_SCENARIOS.find((s) => text.includes(s.id))?.id;
}

/**
 * The scenario as it answers this request: its responses carry the request's id instead of 1
 * (a client matches a response to its request by id). Server requests keep their own ids.
 */
export function answerRequest(scenario: ProviderScenario, body: unknown): ProviderScenario {
  const id = isJsonObject(body) ? body['id'] : undefined;
  if ((typeof id !== 'string' && typeof id !== 'number') || id === 1) return scenario;
  const events = scenario.events.map((event) =>
    isJsonObject(event.data) && ('result' in event.data || 'error' in event.data)
      ? { ...event, data: { ...event.data, id } }
      : event,
  );
  return { ...scenario, events };
}
