import { assistantMessage } from './api-dump';
import { PyFloat, PyModel, pyDumps, pyFloat, type PyValue } from './python-json';
import type { ContentBlock, FrontendResult, ImageRef, PendingTool, Step, StopReason } from './script';
import { tokensOf, Turn } from './scripted-turn';

/** The configured model alias (meta_init); the dated id the API reports is scripted-turn.ts's API_MODEL. */
export const MODEL_ALIAS = 'claude-sonnet-4-5';
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

/** Round-robin merge of concurrent lanes: one step of each in turn, as concurrent agents interleave. */
export function interleave(...lanes: Step[][]): Step[] {
  const out: Step[] = [];
  const longest = Math.max(0, ...lanes.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const lane of lanes) if (i < lane.length) out.push(lane[i] as Step);
  return out;
}
