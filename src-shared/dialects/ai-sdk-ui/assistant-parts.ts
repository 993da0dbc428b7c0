import { TextChunks } from '../provider/text-chunks';

/**
 * The assistant message a frontend builds from the stream, as far as a continuation needs it:
 * when the run pauses on tools the frontend runs, the frontend sends the conversation back with
 * this message, its tool parts answered (continuation.ts). Kept per message, in the message
 * form of the wire the stream came in: AI SDK 5's UI message parts, or v4's message with
 * `content`, `parts` and `toolInvocations`.
 */

export type Wire = 'ui' | 'data';

/** A tool call as its message part says it: the states a frontend gives it. */
export interface ToolPart {
  readonly id: string;
  name: string;
  /** AI SDK 5's `dynamic-tool` parts name the tool in a field, not in the part type. */
  dynamic: boolean;
  providerExecuted: boolean;
  state: 'input-streaming' | 'input-available' | 'output-available' | 'output-error';
  input: unknown;
  output?: unknown;
  errorText?: string;
  /** AI SDK 5: the id of the approval a `tool-approval-request` asked the frontend for. */
  approval?: string;
  /** v4: the step the call was made in. */
  step: number;
}

type Part =
  | { kind: 'step' }
  | { kind: 'text' | 'reasoning'; chunks: TextChunks }
  | { kind: 'tool'; tool: ToolPart }
  /** Sources, files and data parts, already in the wire's message form. */
  | { kind: 'other'; part: Record<string, unknown> };

export class AssistantParts {
  private parts: Part[] = [];
  private steps = 0;

  constructor(readonly wire: Wire) {}

  reset(): void {
    this.parts = [];
    this.steps = 0;
  }

  step(): void {
    this.steps++;
    this.parts.push({ kind: 'step' });
  }

  /** A text or reasoning part starts: where its deltas go. */
  startText(kind: 'text' | 'reasoning'): TextChunks {
    const part = { kind, chunks: new TextChunks() };
    this.parts.push(part);
    return part.chunks;
  }

  tool(tool: ToolPart): void {
    this.parts.push({ kind: 'tool', tool });
  }

  /** The step a tool call made now belongs to (v4 numbers them from 0). */
  currentStep(): number {
    return Math.max(0, this.steps - 1);
  }

  /**
   * A source, file or data part. A data part with the type and id of an earlier one replaces
   * its data where it is, as a frontend does (`processUIMessageStream`): true when it did.
   */
  other(part: Record<string, unknown>): boolean {
    const id = part['id'];
    if (id !== undefined && String(part['type']).startsWith('data-')) {
      const earlier = this.parts.find(
        (p) => p.kind === 'other' && p.part['type'] === part['type'] && p.part['id'] === id,
      );
      if (earlier?.kind === 'other') {
        earlier.part = { ...earlier.part, data: part['data'] };
        return true;
      }
    }
    this.parts.push({ kind: 'other', part });
    return false;
  }

  /** The message as the frontend holds it now. */
  message(id: string, metadata: unknown): Record<string, unknown> {
    return this.wire === 'ui' ? this.uiMessage(id, metadata) : this.dataStreamMessage(id);
  }

  private uiMessage(id: string, metadata: unknown): Record<string, unknown> {
    const parts = this.parts.map((part): Record<string, unknown> => {
      switch (part.kind) {
        case 'step':
          return { type: 'step-start' };
        case 'text':
        case 'reasoning':
          return { type: part.kind, text: part.chunks.text(), state: 'done' };
        case 'tool':
          return uiToolPart(part.tool);
        case 'other':
          return part.part;
      }
    });
    return { id, role: 'assistant', parts, ...(metadata !== undefined ? { metadata } : {}) };
  }

  private dataStreamMessage(id: string): Record<string, unknown> {
    const parts: Record<string, unknown>[] = [];
    const text: string[] = [];
    for (const part of this.parts) {
      switch (part.kind) {
        case 'step':
          parts.push({ type: 'step-start' });
          break;
        case 'text': {
          const joined = part.chunks.text();
          text.push(joined);
          parts.push({ type: 'text', text: joined });
          break;
        }
        case 'reasoning': {
          const joined = part.chunks.text();
          parts.push({ type: 'reasoning', reasoning: joined, details: [{ type: 'text', text: joined }] });
          break;
        }
        case 'tool':
          parts.push({ type: 'tool-invocation', toolInvocation: toolInvocation(part.tool) });
          break;
        case 'other':
          parts.push(part.part);
      }
    }
    const toolInvocations = this.parts.flatMap((p) => (p.kind === 'tool' ? [toolInvocation(p.tool)] : []));
    return { id, role: 'assistant', content: text.join(''), parts, toolInvocations };
  }
}

function uiToolPart(tool: ToolPart): Record<string, unknown> {
  return {
    type: tool.dynamic ? 'dynamic-tool' : `tool-${tool.name}`,
    ...(tool.dynamic ? { toolName: tool.name } : {}),
    toolCallId: tool.id,
    // A call waiting for its approval is in the state the frontend gives it, with the approval's id.
    state: tool.approval !== undefined && tool.state === 'input-available' ? 'approval-requested' : tool.state,
    input: tool.input,
    ...(tool.approval !== undefined ? { approval: { id: tool.approval } } : {}),
    ...(tool.state === 'output-available' ? { output: tool.output } : {}),
    ...(tool.state === 'output-error' ? { errorText: tool.errorText ?? '' } : {}),
    ...(tool.providerExecuted ? { providerExecuted: true } : {}),
  };
}

/** v4's `toolInvocation`: `call` until a result arrives, then `result`. */
function toolInvocation(tool: ToolPart): Record<string, unknown> {
  const done = tool.state === 'output-available' || tool.state === 'output-error';
  return {
    state: done ? 'result' : 'call',
    step: tool.step,
    toolCallId: tool.id,
    toolName: tool.name,
    args: tool.input,
    ...(done ? { result: tool.state === 'output-error' ? (tool.errorText ?? '') : tool.output } : {}),
  };
}
