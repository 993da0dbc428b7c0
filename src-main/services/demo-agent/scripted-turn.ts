import { pyDumps, type PyValue } from './python-json';
import type { ApiEvent, Citation, ContentBlock, ServerToolResultType, Step, StopReason } from './script';
import type { ScriptedAgent } from './scripted-agent';
import { seededBase64 } from './seeded';

/** The dated model id the API reports in its stream events (the agent's meta_init names the alias). */
const API_MODEL = 'claude-sonnet-4-5-20250929';

/** Stand-in token count: a quarter of the characters, as a rough tokenizer would give. */
export const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Splits text into pieces of `size` code points (never inside a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
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
