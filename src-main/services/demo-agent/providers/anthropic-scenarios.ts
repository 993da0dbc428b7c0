import { isJsonObject } from '../../../../src-shared/json/values';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted Anthropic Messages streams (docs/protocols/provider-events.md): every block and
 * delta type, every stop reason, errors (also as the first event), a cut stream and types
 * this version does not know.
 */

const MODEL = 'claude-sonnet-4-5';

const ev = (type: string, fields: Record<string, unknown> = {}): ProviderEvent => ({
  event: type,
  data: { type, ...fields },
});

function messageStart(id: string, inputTokens: number): ProviderEvent {
  return ev('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });
}

const blockStart = (index: number, block: Record<string, unknown>): ProviderEvent =>
  ev('content_block_start', { index, content_block: block });
const delta = (index: number, d: Record<string, unknown>): ProviderEvent =>
  ev('content_block_delta', { index, delta: d });
const blockStop = (index: number): ProviderEvent => ev('content_block_stop', { index });
const textDeltas = (index: number, parts: string[]): ProviderEvent[] =>
  parts.map((text) => delta(index, { type: 'text_delta', text }));
const end = (stopReason: string, outputTokens: number): ProviderEvent[] => [
  ev('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: stopReason === 'stop_sequence' ? '###' : null },
    usage: { output_tokens: outputTokens },
  }),
  ev('message_stop'),
];

function textBlock(index: number, parts: string[]): ProviderEvent[] {
  return [blockStart(index, { type: 'text', text: '' }), ...textDeltas(index, parts), blockStop(index)];
}

function serverTool(
  index: number,
  id: string,
  name: string,
  input: string[],
  resultType: string,
  content: unknown,
): ProviderEvent[] {
  return [
    blockStart(index, { type: 'server_tool_use', id, name, input: {} }),
    ...input.map((partial_json) => delta(index, { type: 'input_json_delta', partial_json })),
    blockStop(index),
    blockStart(index + 1, { type: resultType, tool_use_id: id, content }),
    blockStop(index + 1),
  ];
}

export const ANTHROPIC_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text-citations',
    title: 'Thinking, text with citations',
    summary: 'Extended thinking with its signature, then text citing a document; ends with end_turn.',
    events: [
      messageStart('msg_demo_text', 412),
      ev('ping'),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'The user asks for the capital. ' }),
      delta(0, { type: 'thinking_delta', thinking: 'The document names it.' }),
      delta(0, { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '', citations: [] }),
      ...textDeltas(1, ['The capital of France ', 'is Paris.']),
      delta(1, {
        type: 'citations_delta',
        citation: {
          type: 'char_location',
          cited_text: 'Paris is the capital of France.',
          document_index: 0,
          document_title: 'Atlas',
          start_char_index: 0,
          end_char_index: 31,
        },
      }),
      ...textDeltas(1, [' It lies on the Seine.']),
      blockStop(1),
      ...end('end_turn', 38),
    ],
  },
  {
    id: 'tool-use',
    title: 'Client tool call',
    summary: 'Text, then a tool_use block whose input streams as input_json_delta; stops with tool_use.',
    events: [
      messageStart('msg_demo_tool', 620),
      ...textBlock(0, ['Let me check the weather.']),
      blockStart(1, { type: 'tool_use', id: 'toolu_demo_weather', name: 'get_weather', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"location": "San Fra' }),
      delta(1, { type: 'input_json_delta', partial_json: 'ncisco, CA", "unit": "celsius"}' }),
      blockStop(1),
      ...end('tool_use', 54),
    ],
  },
  {
    id: 'tool-answered',
    title: 'Client tool call, answered',
    summary: 'What a conversation ending with the tool_result answering the call gets: the answer, from the result.',
    events: [
      messageStart('msg_demo_answered', 680),
      ...textBlock(0, ['San Francisco: ', 'fog, 14 °C.']),
      ...end('end_turn', 12),
    ],
  },
  {
    id: 'server-tools',
    title: 'Server and MCP tools',
    summary:
      'Web search, web fetch, code execution (bash and text editor), tool search and an MCP tool with their result blocks, redacted thinking; pauses with pause_turn.',
    events: [
      messageStart('msg_demo_server', 1800),
      blockStart(0, {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
      }),
      blockStop(0),
      ...serverTool(1, 'srvtoolu_demo_search', 'web_search', ['{"query": "weather paris"}'], 'web_search_tool_result', [
        {
          type: 'web_search_result',
          url: 'https://weather.example/paris',
          title: 'Paris weather',
          encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1',
          page_age: '2 hours',
        },
      ]),
      ...serverTool(
        3,
        'srvtoolu_demo_fetch',
        'web_fetch',
        ['{"url": "https://weather.example/paris"}'],
        'web_fetch_tool_result',
        {
          type: 'web_fetch_result',
          url: 'https://weather.example/paris',
          content: {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'Sunny, 21 °C' },
            title: 'Paris weather',
          },
          retrieved_at: '2025-01-01T00:00:00Z',
        },
      ),
      ...serverTool(
        5,
        'srvtoolu_demo_bash',
        'bash_code_execution',
        ['{"command": "python3 -c \\"print(6*7)\\""}'],
        'bash_code_execution_tool_result',
        { type: 'bash_code_execution_result', stdout: '42\n', stderr: '', return_code: 0, content: [] },
      ),
      ...serverTool(
        7,
        'srvtoolu_demo_edit',
        'text_editor_code_execution',
        ['{"command": "view", "path": "/tmp/notes.txt"}'],
        'text_editor_code_execution_tool_result',
        {
          type: 'text_editor_code_execution_result',
          file_type: 'text',
          content: 'remember the umbrella',
          numLines: 1,
          startLine: 1,
          totalLines: 1,
        },
      ),
      ...serverTool(
        9,
        'srvtoolu_demo_code',
        'code_execution',
        ['{"code": "print(1+1)"}'],
        'code_execution_tool_result',
        { type: 'code_execution_result', stdout: '2\n', stderr: '', return_code: 0, content: [] },
      ),
      ...serverTool(
        11,
        'srvtoolu_demo_toolsearch',
        'tool_search_tool_regex',
        ['{"query": "calendar"}'],
        'tool_search_tool_result',
        {
          type: 'tool_search_tool_search_result',
          tool_references: [{ type: 'tool_reference', tool_name: 'calendar_create' }],
        },
      ),
      ...serverTool(
        13,
        'srvtoolu_demo_search2',
        'web_search',
        ['{"query": "rain tomorrow"}'],
        'web_search_tool_result',
        { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
      ),
      blockStart(15, {
        type: 'mcp_tool_use',
        id: 'mcptoolu_demo_cal',
        name: 'list_events',
        server_name: 'calendar',
        input: { day: 'today' },
      }),
      blockStop(15),
      blockStart(16, {
        type: 'mcp_tool_result',
        tool_use_id: 'mcptoolu_demo_cal',
        is_error: false,
        content: [{ type: 'text', text: '09:00 stand-up' }],
      }),
      blockStop(16),
      ...textBlock(17, ['It is sunny in Paris, 21 °C.']),
      ...end('pause_turn', 230),
    ],
  },
  {
    id: 'pause-turn-continued',
    title: 'Paused turn, continued',
    summary:
      'What a conversation ending with the assistant message that stopped on pause_turn gets: the turn goes on, and ends.',
    events: [
      messageStart('msg_demo_continued', 2100),
      ...serverTool(
        0,
        'srvtoolu_demo_search3',
        'web_search',
        ['{"query": "paris weather tomorrow"}'],
        'web_search_tool_result',
        [{ type: 'web_search_result', url: 'https://weather.example/paris-tomorrow', title: 'Paris tomorrow' }],
      ),
      ...textBlock(2, ['Tomorrow: ', 'rain, 16 °C.']),
      ...end('end_turn', 24),
    ],
  },
  {
    id: 'refusal',
    title: 'Refusal',
    summary: 'The model declines; the message stops with the refusal stop reason.',
    events: [messageStart('msg_demo_refusal', 90), ...textBlock(0, ['I can’t help with that.']), ...end('refusal', 9)],
  },
  {
    id: 'max-tokens',
    title: 'Token limit',
    summary: 'The text is cut by max_tokens.',
    events: [
      messageStart('msg_demo_max', 50),
      ...textBlock(0, ['Once upon a time, ', 'there was a']),
      ...end('max_tokens', 8),
    ],
  },
  {
    id: 'stop-sequence',
    title: 'Stop sequence',
    summary: 'The text ends at a stop sequence.',
    events: [
      messageStart('msg_demo_stopseq', 60),
      ...textBlock(0, ['Step 1: open the file.\n']),
      ...end('stop_sequence', 10),
    ],
  },
  {
    id: 'error-first',
    title: 'Overloaded at once',
    summary: 'The API accepts the request and its first event is an overloaded_error.',
    events: [ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })],
  },
  {
    id: 'error-midstream',
    title: 'Error mid-stream',
    summary: 'Text starts streaming, then an api_error event ends the stream.',
    events: [
      messageStart('msg_demo_err', 300),
      blockStart(0, { type: 'text', text: '' }),
      ...textDeltas(0, ['Working on it']),
      ev('error', { error: { type: 'api_error', message: 'Internal server error' } }),
    ],
  },
  {
    id: 'unknown-types',
    title: 'Types this version does not know',
    summary: 'A block type, a delta type and an event type newer than the inspector: kept and shown.',
    events: [
      messageStart('msg_demo_new', 70),
      blockStart(0, { type: 'hologram', frames: 3 }),
      delta(0, { type: 'hologram_delta', frame: 1 }),
      blockStop(0),
      ev('message_progress', { percent: 50 }),
      ...textBlock(1, ['Done.']),
      ...end('end_turn', 12),
    ],
  },
  {
    id: 'cut',
    title: 'Connection dropped',
    summary: 'The stream stops inside a text block, without message_stop.',
    events: [
      messageStart('msg_demo_cut', 40),
      blockStart(0, { type: 'text', text: '' }),
      ...textDeltas(0, ['This answer never']),
    ],
    cut: true,
  },
];

/**
 * The scenario as a request answers it: a conversation whose last message is the user's
 * `tool_result` (the client's answer to the call a message stopped on) gets the answer from it,
 * and one whose last message is the assistant's (a turn paused with pause_turn, sent back) the
 * rest of that turn, whatever scenario the body still names.
 */
export function anthropicContinuation(scenario: ProviderScenario, body: unknown): ProviderScenario {
  const messages = isJsonObject(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const last: unknown = messages.at(-1);
  const content = isJsonObject(last) && Array.isArray(last['content']) ? (last['content'] as unknown[]) : [];
  const answers = content.some((block) => isJsonObject(block) && block['type'] === 'tool_result');
  const paused = isJsonObject(last) && last['role'] === 'assistant';
  const id = answers ? 'tool-answered' : paused ? 'pause-turn-continued' : undefined;
  return ANTHROPIC_SCENARIOS.find((s) => s.id === id) ?? scenario;
}
