import { assistantMessage } from './api-dump';
import { PyFloat, PyModel, pyDumps, pyFloat, type PyValue } from './python-json';
import type {
  ApiEvent,
  Citation,
  ContentBlock,
  FrontendResult,
  ImageRef,
  PendingTool,
  ServerToolResultType,
  Step,
  StopReason,
} from './script';
import { seededBase64 } from './seeded';

/** The configured model alias (meta_init) and the dated id the API reports (raw events). */
export const MODEL_ALIAS = 'claude-sonnet-4-5';
export const API_MODEL = 'claude-sonnet-4-5-20250929';
/** Timestamps in file metadata are fixed so every run is byte-identical. */
export const FIXED_TIMESTAMP = '2026-03-01T12:00:00';

/** Sonnet 4.5 prices per million tokens, as the upstream pricing table has them. */
const PRICE_PER_MTOK = { input: 3, output: 15 };

export type UserPrompt = PyValue;

export interface AgentInit {
  uuid: string;
  /** `parent_agent_uuid` in meta_init: null for the main agent. */
  parent: string | null;
  prompt: UserPrompt;
  /**
   * `stream_meta_history_and_tool_results`: true for the demo's main agent (message_history,
   * server tool results, frontend results on resume, meta_final); false for sub-agents.
   */
  streamMeta: boolean;
}

/** `_strip_binary_data`: base64 sources replaced by a size label. */
export function stripBinaryData(value: PyValue): PyValue {
  if (Array.isArray(value)) return (value as readonly PyValue[]).map(stripBinaryData);
  if (value === null || typeof value !== 'object' || value instanceof PyModel || value instanceof PyFloat) return value;
  const record = value as Readonly<Record<string, PyValue>>;
  const source = record['source'];
  if (source && typeof source === 'object' && !Array.isArray(source) && !(source instanceof PyModel)) {
    const src = source as Readonly<Record<string, PyValue>>;
    if (src['type'] === 'base64' && 'data' in src) {
      const bytes = (typeof src['data'] === 'string' ? src['data'].length : 0) * 0.75;
      const label =
        bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
      const { data: _data, ...rest } = src;
      return { ...record, source: { ...rest, data: `[base64, ${label}]` } };
    }
  }
  const out: Record<string, PyValue> = {};
  for (const [key, item] of Object.entries(record)) out[key] = stripBinaryData(item);
  return out;
}

function userMessage(prompt: UserPrompt): PyValue {
  if (typeof prompt === 'string') return { role: 'user', content: [{ type: 'text', text: prompt }] };
  if (Array.isArray(prompt)) return { role: 'user', content: prompt };
  return prompt;
}

/** Stand-in token count: a quarter of the characters, as a rough tokenizer would give. */
const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The file ids a bash code-execution result produced (`extract_file_ids`). */
function fileIdsOf(content: PyValue): string[] {
  if (!(content instanceof PyModel) || content.fields['type'] !== 'bash_code_execution_result') return [];
  const outputs = content.fields['content'];
  if (!Array.isArray(outputs)) return [];
  return (outputs as readonly PyValue[]).flatMap((o) =>
    o instanceof PyModel && typeof o.fields['file_id'] === 'string' ? [o.fields['file_id']] : [],
  );
}

/** Splits text into pieces of `size` code points (never inside a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/**
 * One agent of a scripted run, mirroring what `core/agent.py` does around the API calls:
 * meta_init, API turns (as stream events), tool results, pauses, meta_files and meta_final,
 * with the conversation history, usage and files it would accumulate. Steps collect in a
 * lane that the scenario takes and merges (sub-agents run concurrently).
 */
export class ScriptedAgent {
  private lane: Step[] = [];
  private readonly history: PyValue[] = [];
  private pendingResults: PyValue[] = [];
  private readonly files = new Map<string, PyValue>();
  private readonly usage = { input: 0, output: 0 };
  private apiCalls = 0;
  private messages = 0;
  private lastContent: ContentBlock[] = [];
  private lastStop: StopReason | null = null;

  constructor(readonly init: AgentInit) {}

  get uuid(): string {
    return this.init.uuid;
  }

  get totalSteps(): number {
    return this.apiCalls;
  }

  push(step: Step): this {
    this.lane.push(step);
    return this;
  }

  /** The steps produced since the last take. */
  take(): Step[] {
    const steps = this.lane;
    this.lane = [];
    return steps;
  }

  /** The run starts: the user message joins the history and meta_init is emitted. */
  start(): this {
    const { prompt } = this.init;
    this.history.push(userMessage(prompt));
    const userQuery = typeof prompt === 'string' ? prompt : pyDumps(stripBinaryData(prompt));
    return this.push({
      kind: 'meta_init',
      agent: this.uuid,
      payload: {
        user_query: userQuery,
        agent_uuid: this.uuid,
        parent_agent_uuid: this.init.parent,
        model: MODEL_ALIAS,
        ...(this.init.streamMeta ? { message_history: stripBinaryData(this.history) } : {}),
      },
    });
  }

  /** One API call. Tool results gathered since the previous call join the history first. */
  turn(): Turn {
    if (this.pendingResults.length > 0) {
      this.history.push({ role: 'user', content: this.pendingResults });
      this.pendingResults = [];
    }
    this.messages++;
    const id = `msg_demo_${this.uuid.slice(0, 8)}_${String(this.messages).padStart(2, '0')}`;
    const inputTokens = 850 + tokensOf(pyDumps(this.history));
    return new Turn(this, id, inputTokens);
  }

  /** Called by Turn.end: the assistant message is part of the run from now on. */
  completeTurn(content: ContentBlock[], stopReason: StopReason, usage: { input: number; output: number }): void {
    this.apiCalls++;
    this.usage.input += usage.input;
    this.usage.output += usage.output;
    this.lastContent = content;
    this.lastStop = stopReason;
    this.history.push(assistantMessage(content));
    for (const block of content)
      if (block.type === 'bash_code_execution_tool_result')
        for (const id of fileIdsOf(block.content)) this.registerFile(id);
  }

  /** A backend tool's result, streamed as the tool completes (always, in the legacy agent). */
  toolResult(toolUseId: string, name: string, content: PyValue, images: ImageRef[] = [], isError = false): this {
    this.recordToolResult(toolUseId, content, isError);
    return this.push({ kind: 'tool_result', agent: this.uuid, toolUseId, name, content, images });
  }

  /** A tool result that joins the history without a step (a fault scenario writes its own bytes). */
  recordToolResult(toolUseId: string, content: PyValue, isError = false): this {
    this.pendingResults.push({
      type: 'tool_result',
      tool_use_id: toolUseId,
      content,
      ...(isError ? { is_error: true } : {}),
    });
    return this;
  }

  /** The run pauses for frontend tools: one awaiting_frontend_tools event, no meta_final. */
  awaitFrontendTools(tools: PendingTool[]): this {
    return this.push({ kind: 'awaiting_frontend_tools', agent: this.uuid, tools });
  }

  /** `continue_with_tool_results`: frontend results join the backend ones; streamed only with the meta flag. */
  frontendResults(results: readonly FrontendResult[], pending: readonly PendingTool[]): this {
    for (const r of results) {
      this.pendingResults.push({
        type: 'tool_result',
        tool_use_id: r.tool_use_id,
        content: r.content,
        ...(r.is_error ? { is_error: true } : {}),
      });
      if (!this.init.streamMeta) continue;
      const name = pending.find((t) => t.tool_use_id === r.tool_use_id)?.name ?? 'unknown';
      this.push({
        kind: 'tool_result',
        agent: this.uuid,
        toolUseId: r.tool_use_id,
        name,
        content: r.content,
        images: [],
      });
    }
    return this;
  }

  registerFile(fileId: string): void {
    this.files.set(fileId, {
      file_id: fileId,
      filename: `file_${fileId}`,
      first_seen_step: 0,
      created_at: FIXED_TIMESTAMP,
      last_seen_step: 0,
      updated_at: FIXED_TIMESTAMP,
    });
  }

  /** The run completes: meta_files when files exist, then meta_final (main agent only). */
  finish(): this {
    const files = [...this.files.values()];
    if (files.length > 0) this.push({ kind: 'meta_files', agent: this.uuid, files });
    if (!this.init.streamMeta) return this;
    return this.push({
      kind: 'meta_final',
      agent: this.uuid,
      payload: {
        conversation_history: stripBinaryData(this.history),
        stop_reason: this.lastStop,
        total_steps: this.apiCalls,
        generated_files: files,
        cost: this.cost(),
        cumulative_usage: {
          input_tokens: this.usage.input,
          output_tokens: this.usage.output,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    });
  }

  /** `_extract_final_answer`: the text blocks after the last tool block of the last turn. */
  finalAnswer(): string {
    let start = 0;
    this.lastContent.forEach((block, i) => {
      if (block.type !== 'text' && block.type !== 'thinking') start = i + 1;
    });
    return this.lastContent
      .slice(start)
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('');
  }

  get stopReason(): StopReason | null {
    return this.lastStop;
  }

  private cost(): PyValue {
    const input = round6((this.usage.input * PRICE_PER_MTOK.input) / 1e6);
    const output = round6((this.usage.output * PRICE_PER_MTOK.output) / 1e6);
    return {
      input_cost: pyFloat(input),
      output_cost: pyFloat(output),
      cache_write_cost: pyFloat(0),
      cache_read_cost: pyFloat(0),
      total_cost: pyFloat(round6(input + output)),
      total_input_tokens: this.usage.input,
      total_output_tokens: this.usage.output,
      total_cache_creation_tokens: 0,
      total_cache_read_tokens: 0,
      model_id: MODEL_ALIAS,
      long_context_applied: false,
      currency: 'USD',
    };
  }
}

/** Default size of the pieces an API streams text, thinking and tool input in. */
const INPUT_PIECE = 24;

/**
 * One API call as Anthropic stream events. Blocks are added in order; `end` closes the
 * message. `abandon` leaves it open: the call failed (an error frame or a retry follows).
 */
export class Turn {
  private index = 0;
  private readonly content: ContentBlock[] = [];
  private outputText = '';

  constructor(
    private readonly agent: ScriptedAgent,
    private readonly messageId: string,
    private readonly inputTokens: number,
  ) {
    this.api({
      type: 'message_start',
      message: {
        id: messageId,
        model: API_MODEL,
        content: [],
        stop_reason: null,
        usage: { input_tokens: inputTokens, output_tokens: 1 },
      },
    });
  }

  thinking(chunks: readonly string[]): this {
    const thinking = chunks.join('');
    const signature = seededBase64(120, 'signature', this.messageId, thinking);
    const index = this.open({ type: 'thinking', thinking: '', signature: '' });
    for (const chunk of chunks)
      this.api({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: chunk } });
    this.api({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } });
    return this.close(index, { type: 'thinking', thinking, signature }, thinking);
  }

  text(chunks: readonly string[], citations: Citation[] | null = null): this {
    return this.finishText(this.partialText(chunks), chunks.join(''), citations);
  }

  /** A text block left open: `finishText` closes it, or the call is abandoned. Returns its index. */
  partialText(chunks: readonly string[]): number {
    const index = this.open({ type: 'text', text: '', citations: null });
    for (const chunk of chunks)
      this.api({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } });
    return index;
  }

  finishText(index: number, text: string, citations: Citation[] | null = null): this {
    return this.close(index, { type: 'text', text, citations }, text);
  }

  /** A step written in the middle of the call (fault scenarios put hand-made bytes here). */
  inject(step: Step): this {
    this.agent.push(step);
    return this;
  }

  /** A block that is part of the message but whose events the scenario writes itself. Returns its index. */
  silentBlock(block: ContentBlock): number {
    this.content.push(block);
    return this.index++;
  }

  toolUse(id: string, name: string, input: PyValue, pieceSize = INPUT_PIECE): this {
    return this.inputBlock({ type: 'tool_use', id, name, input }, pieceSize);
  }

  serverToolUse(id: string, name: string, input: PyValue): this {
    return this.inputBlock({ type: 'server_tool_use', id, name, input }, INPUT_PIECE);
  }

  /** A server tool's result block; not streamed by agents without the meta flag (the index still advances). */
  serverToolResult(type: ServerToolResultType, toolUseId: string, content: PyValue): this {
    const block: ContentBlock = { type, tool_use_id: toolUseId, content };
    if (!this.agent.init.streamMeta) {
      this.silentBlock(block);
      return this;
    }
    const index = this.open(block);
    return this.close(index, block, '');
  }

  end(stopReason: StopReason): ScriptedAgent {
    const usage = { input: this.inputTokens, output: tokensOf(this.outputText) };
    this.api({
      type: 'message_delta',
      stop_reason: stopReason,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    });
    this.api({
      type: 'message_stop',
      message: {
        id: this.messageId,
        model: API_MODEL,
        content: this.content,
        stop_reason: stopReason,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      },
    });
    this.agent.completeTurn(this.content, stopReason, usage);
    return this.agent;
  }

  abandon(): ScriptedAgent {
    return this.agent;
  }

  private inputBlock(block: Extract<ContentBlock, { type: 'tool_use' | 'server_tool_use' }>, pieceSize: number): this {
    const index = this.open({ ...block, input: {} });
    const json = pyDumps(block.input, { ensureAscii: false });
    // The API opens every input stream with an empty partial.
    for (const partial of ['', ...pieces(json, pieceSize)])
      this.api({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
    return this.close(index, block, json);
  }

  private open(block: ContentBlock): number {
    const index = this.index++;
    this.api({ type: 'content_block_start', index, block });
    return index;
  }

  private close(index: number, block: ContentBlock, produced: string): this {
    this.content.push(block);
    this.outputText += produced;
    this.api({ type: 'content_block_stop', index, block });
    return this;
  }

  private api(event: ApiEvent): void {
    this.agent.push({ kind: 'api', agent: this.agent.uuid, event });
  }
}

/** Round-robin merge of concurrent lanes: one step of each in turn, as concurrent agents interleave. */
export function interleave(...lanes: Step[][]): Step[] {
  const out: Step[] = [];
  const longest = Math.max(0, ...lanes.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const lane of lanes) if (i < lane.length) out.push(lane[i] as Step);
  return out;
}
