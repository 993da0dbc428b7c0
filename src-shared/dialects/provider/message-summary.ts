/**
 * What the blocks view shows per message (one Anthropic message, one OpenAI response): id,
 * model, status, stop reason, usage, time to first token and output tokens per second. The
 * times are the frames' receive times, so a recording shows what the live stream showed.
 */
export interface MessageSummary {
  /** Absent when the stream names none (an AI SDK UI stream without messageId, a JSON-RPC exchange without its request). */
  id?: string;
  /** Absent when the stream names none (AG-UI, the AI SDK's streams). */
  model?: string;
  status: string;
  stop_reason?: string;
  /** The stop sequence that ended the output (Anthropic's `stop_sequence` beside `stop_reason: "stop_sequence"`). */
  stop_sequence?: string;
  usage?: Record<string, unknown>;
  error?: unknown;
  /** The id the API gave the failed request beside its error (Anthropic's error event's `request_id`): what its support asks for. */
  request_id?: string;
  incomplete_details?: unknown;
  /** The moderation of the response's input and output (the Responses API's `moderation`), as the API gave it. */
  moderation?: unknown;
  /** The code-execution container the message ran in (Anthropic's `{id, expires_at}`): a client names it to reuse it. */
  container?: unknown;
  /** What the API changed in the request's input before the model saw it (Anthropic's `input_transformations`), in order. */
  input_transformations?: unknown[];
  /** The context edits the API applied to the request (Anthropic's `context_management.applied_edits`: what it cleared, the tokens that freed). */
  context_management?: unknown;
  /** What a run interrupted for its application to resume (AG-UI's `outcome` interrupt), as the stream gave it. */
  interrupts?: unknown;
  /** What the server attached to the message (the AI SDK's `messageMetadata`, merged as useChat merges it). */
  metadata?: unknown;
  time_to_first_token_ms?: number;
  duration_ms?: number;
  output_tokens_per_second?: number;
}

/**
 * The summary's fields measured by the clock of one run: another run of the same request
 * differs in them by nature (the diff never counts them as differences).
 */
export const MESSAGE_TIMING_FIELDS = [
  'time_to_first_token_ms',
  'duration_ms',
  'output_tokens_per_second',
] as const satisfies readonly (keyof MessageSummary)[];

export class MessageClock {
  id = '';
  model = '';
  status = 'in_progress';
  stopReason: string | undefined;
  stopSequence: string | undefined;
  usage: Record<string, unknown> | undefined;
  error: unknown;
  requestId: string | undefined;
  incompleteDetails: unknown;
  moderation: unknown;
  container: unknown;
  inputTransformations: unknown[] | undefined;
  contextManagement: unknown;
  interrupts: unknown;
  metadata: unknown;
  private firstTokenAt: number | undefined;

  constructor(private readonly startedAt: number) {}

  /** A content delta arrived (text, thinking, refusal, tool input…). */
  token(receivedAt: number): void {
    this.firstTokenAt ??= receivedAt;
  }

  /** Usage fields merged in as they arrive (Anthropic sends input tokens first, output tokens last). */
  addUsage(usage: unknown): void {
    if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return;
    this.usage = { ...this.usage, ...(usage as Record<string, unknown>) };
  }

  /** Entries of `input_transformations` appended as they arrive (Anthropic sends them at the start and again at the end). */
  addInputTransformations(entries: unknown): void {
    if (!Array.isArray(entries) || entries.length === 0) return;
    this.inputTransformations = [...(this.inputTransformations ?? []), ...(entries as unknown[])];
  }

  summary(endedAt: number): MessageSummary {
    // A name the stream does not give is left out, never claimed as "".
    const summary: MessageSummary = {
      ...(this.id !== '' ? { id: this.id } : {}),
      ...(this.model !== '' ? { model: this.model } : {}),
      status: this.status,
    };
    if (this.stopReason !== undefined) summary.stop_reason = this.stopReason;
    if (this.stopSequence !== undefined) summary.stop_sequence = this.stopSequence;
    if (this.usage !== undefined) summary.usage = this.usage;
    if (this.error !== undefined) summary.error = this.error;
    if (this.requestId !== undefined) summary.request_id = this.requestId;
    if (this.incompleteDetails !== undefined && this.incompleteDetails !== null)
      summary.incomplete_details = this.incompleteDetails;
    if (this.moderation !== undefined && this.moderation !== null) summary.moderation = this.moderation;
    if (this.container !== undefined && this.container !== null) summary.container = this.container;
    if (this.inputTransformations !== undefined) summary.input_transformations = this.inputTransformations;
    if (this.contextManagement !== undefined) summary.context_management = this.contextManagement;
    if (this.interrupts !== undefined) summary.interrupts = this.interrupts;
    if (this.metadata !== undefined) summary.metadata = this.metadata;
    if (this.firstTokenAt !== undefined && this.startedAt > 0)
      summary.time_to_first_token_ms = this.firstTokenAt - this.startedAt;
    if (this.startedAt > 0 && endedAt >= this.startedAt) summary.duration_ms = endedAt - this.startedAt;
    const output = this.usage?.['output_tokens'];
    const streaming = this.firstTokenAt === undefined ? 0 : endedAt - this.firstTokenAt;
    if (typeof output === 'number' && streaming > 0)
      summary.output_tokens_per_second = Math.round((output / streaming) * 1000 * 10) / 10;
    return summary;
  }
}
