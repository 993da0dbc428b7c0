import { isJsonObject } from '../../../../src-shared/json/values';
import { AG_UI_SAMPLE_INPUT, AG_UI_SCENARIOS, chooseAgUiScenario } from './ag-ui-scenarios';
import { continuation } from './ai-sdk-answers';
import { AI_SDK_DATA_SCENARIOS, AI_SDK_UI_SCENARIOS } from './ai-sdk-scenarios';
import { ANTHROPIC_SCENARIOS, anthropicContinuation } from './anthropic-scenarios';
import { GEMINI_SCENARIOS, geminiContinuation } from './gemini-scenarios';
import { chatContinuation, chatSse, OPENAI_CHAT_SCENARIOS } from './openai-chat-scenarios';
import {
  A2A_SCENARIOS,
  answerRequest,
  chooseA2aScenario,
  chooseMcpScenario,
  MCP_SCENARIOS,
} from './json-rpc-scenarios';
import { OLLAMA_CHAT_SCENARIOS, OLLAMA_GENERATE_SCENARIOS, ollamaChatContinuation } from './ollama-scenarios';
import { responsesContinuation } from './openai-answers';
import { OPENAI_SCENARIOS } from './openai-scenarios';
import {
  matchesPath,
  matchesQuery,
  providerSse,
  type ProviderApiSpec,
  type ProviderEvent,
  type ProviderScenario,
} from './types';

const PROMPT = 'What is the capital of France?';

/** Ollama's native API: NDJSON, one chunk per line (its Go server's content type). */
const OLLAMA_HEADERS = { 'content-type': 'application/x-ndjson' };
const ndjsonLine = (event: ProviderEvent): string => `${eventJson(event)}\n`;

/** The provider APIs the demo agent serves, by the dialect their streams are. */
export const PROVIDER_APIS: readonly ProviderApiSpec[] = [
  {
    id: 'anthropic',
    dialect: 'anthropic-messages',
    path: '/v1/messages',
    title: 'Anthropic Messages',
    scenarios: ANTHROPIC_SCENARIOS,
    answer: anthropicContinuation,
    sample: {
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      },
      headers: [['anthropic-version', '2023-06-01']],
    },
  },
  {
    id: 'openai',
    dialect: 'openai-responses',
    path: '/v1/responses',
    title: 'OpenAI Responses',
    scenarios: OPENAI_SCENARIOS,
    answer: responsesContinuation(OPENAI_SCENARIOS),
    sample: { body: { model: 'gpt-5', stream: true, input: PROMPT } },
  },
  {
    id: 'openai-chat',
    dialect: 'openai-chat',
    path: '/v1/chat/completions',
    title: 'OpenAI Chat Completions',
    scenarios: OPENAI_CHAT_SCENARIOS,
    encode: chatSse,
    // `n` asks for several choices: the scenario that streams two.
    choose: (body) => (isJsonObject(body) && typeof body['n'] === 'number' && body['n'] > 1 ? 'n-choices' : undefined),
    answer: chatContinuation,
    sample: {
      body: {
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: PROMPT }],
      },
    },
  },
  {
    id: 'mcp',
    dialect: 'json-rpc',
    path: '/mcp',
    title: 'MCP (Streamable HTTP)',
    scenarios: MCP_SCENARIOS,
    streamsWithoutFlag: true,
    choose: chooseMcpScenario,
    answer: answerRequest,
    sample: {
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_weather', arguments: { city: 'Paris' }, _meta: { progressToken: 'weather-1' } },
      },
      headers: [
        ['Accept', 'application/json, text/event-stream'],
        ['MCP-Protocol-Version', '2025-06-18'],
      ],
    },
  },
  {
    id: 'a2a',
    dialect: 'json-rpc',
    path: '/a2a',
    title: 'A2A (message/stream)',
    scenarios: A2A_SCENARIOS,
    streamsWithoutFlag: true,
    choose: chooseA2aScenario,
    answer: answerRequest,
    sample: {
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            role: 'user',
            messageId: 'msg-1',
            parts: [{ kind: 'text', text: 'Plan two days in Paris' }],
          },
        },
      },
      headers: [['Accept', 'text/event-stream']],
    },
  },
  {
    id: 'ag-ui',
    dialect: 'ag-ui',
    path: '/ag-ui',
    title: 'AG-UI agent',
    scenarios: AG_UI_SCENARIOS,
    streamsWithoutFlag: true,
    choose: chooseAgUiScenario,
    sample: { body: AG_UI_SAMPLE_INPUT },
  },
  {
    id: 'gemini',
    dialect: 'gemini',
    path: '/v1beta/models/{model}:streamGenerateContent',
    title: 'Gemini',
    scenarios: GEMINI_SCENARIOS,
    answer: geminiContinuation,
    // With alt=sse: data-only events, framed with CRLF as the API frames them.
    encode: (event) => `data: ${eventJson(event)}\r\n\r\n`,
    // Without it: the same responses as one JSON array, each element pretty-printed with CRLF.
    alternateWire: {
      when: (query) => query.get('alt') !== 'sse',
      encode: (event, index) => `${index === 0 ? '[' : '\r\n,\r\n'}${eventJson(event, 2).replaceAll('\n', '\r\n')}`,
      close: '\r\n]',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    },
    streamsWithoutFlag: true,
    sample: {
      body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
      query: '?alt=sse',
    },
  },
  {
    id: 'ai-sdk-ui',
    dialect: 'ai-sdk-ui',
    path: '/api/chat',
    title: 'AI SDK UI stream',
    scenarios: AI_SDK_UI_SCENARIOS,
    headers: { 'x-vercel-ai-ui-message-stream': 'v1' },
    streamsWithoutFlag: true,
    answer: continuation(AI_SDK_UI_SCENARIOS),
    sample: { body: aiSdkChatBody() },
  },
  {
    id: 'ai-sdk-data',
    dialect: 'ai-sdk-ui',
    path: '/api/chat',
    query: 'protocol=data',
    title: 'AI SDK data stream (v4)',
    scenarios: AI_SDK_DATA_SCENARIOS,
    encode: (event) => `${eventJson(event)}\n`,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' },
    streamsWithoutFlag: true,
    answer: continuation(AI_SDK_DATA_SCENARIOS),
    sample: { body: aiSdkChatBody() },
    fixtureExtension: 'txt',
  },
  {
    id: 'ollama-chat',
    dialect: 'ollama',
    path: '/ollama/api/chat',
    title: 'Ollama /api/chat',
    scenarios: OLLAMA_CHAT_SCENARIOS,
    encode: ndjsonLine,
    headers: OLLAMA_HEADERS,
    // Ollama streams unless the body says "stream": false.
    streamsWithoutFlag: true,
    answer: ollamaChatContinuation,
    sample: { body: { model: 'llama3.2', messages: [{ role: 'user', content: PROMPT }] } },
    fixtureExtension: 'txt',
  },
  {
    id: 'ollama-generate',
    dialect: 'ollama',
    path: '/ollama/api/generate',
    title: 'Ollama /api/generate',
    scenarios: OLLAMA_GENERATE_SCENARIOS,
    encode: ndjsonLine,
    headers: OLLAMA_HEADERS,
    streamsWithoutFlag: true,
    sample: { body: { model: 'llama3.2', prompt: PROMPT } },
    fixtureExtension: 'txt',
  },
];

function eventJson(event: ProviderEvent, indent?: number): string {
  return typeof event.data === 'string' ? event.data : JSON.stringify(event.data, null, indent);
}

/** What `useChat` sends: the chat's id and its messages, each with its parts. */
function aiSdkChatBody(): Record<string, unknown> {
  return { id: 'chat-demo', messages: [{ id: 'msg-user-1', role: 'user', parts: [{ type: 'text', text: PROMPT }] }] };
}

/** The API a request is for: its path, and among the APIs on that path the one its query selects. */
export function providerApiFor(path: string, query: URLSearchParams): ProviderApi | undefined {
  const onPath = PROVIDER_APIS.filter((api) => matchesPath(api, path));
  return onPath.find((api) => api.query && matchesQuery(api, query)) ?? onPath.find((api) => !api.query);
}

export type ProviderApi = ProviderApiSpec;

/** The whole body of a scenario, as the API writes it. */
export function scenarioSse(api: ProviderApi, scenario: ProviderScenario): string {
  return scenario.events.map(api.encode ?? providerSse).join('');
}

/** The fixture file a scenario is written to (resources/fixtures/providers/<dialect>/<id>.sse, or .txt). */
export function scenarioFixtureName(api: ProviderApi, scenario: ProviderScenario): string {
  return `${api.dialect}/${scenario.id}.${api.fixtureExtension ?? 'sse'}`;
}
