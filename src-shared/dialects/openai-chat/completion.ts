import type { UnifiedEvent } from '../../envelope/unified';
import type { Frame } from '../../sse/types';
import { AssistantContent } from '../provider/assistant-content';
import { MessageClock, type MessageSummary } from '../provider/message-summary';
import { ChoiceAudio } from './audio';
import { ReasoningDetails } from './reasoning-details';
import { ToolCalls, type ToolCall } from './tool-calls';
import { summaryUsage, type StreamedChannel } from './vocabulary';

/**
 * One choice of a completion: a message of its own (n > 1 streams several, told apart by
 * `index`), with its open text channel, its tool calls and how it finished.
 */
export interface Choice {
  readonly index: number;
  /** The agent its envelopes carry, so that the blocks of two choices never merge. */
  readonly agent: string;
  readonly clock: MessageClock;
  /** The text channel whose block is open: a delta of another channel closes it. */
  open: StreamedChannel | undefined;
  /** The unified form of the open channel's deltas, shared by all of them (read-only). */
  deltaEvent: UnifiedEvent | undefined;
  readonly tools: ToolCalls;
  /** Its finish_reason, once a chunk gave one. */
  finish: string | undefined;
  /** When it finished (the summary's duration ends there, not at the last choice's finish). */
  finishedAt: number | undefined;
  /** Its last chunk, for a finding about its end. */
  lastFrame: Frame;
  /** Its content text, for the assistant message a client sends back with its tool results. */
  readonly content: AssistantContent;
  /** The calls its finish_reason `tool_calls` (or `function_call`) left for the client to run. */
  clientCalls: ToolCall[];
  /** OpenRouter's reasoning details, joined, for the assistant message a client sends back. */
  readonly reasoningDetails: ReasoningDetails;
  /** The annotations its deltas carried (`url_citation`s of a web search), cited when it ends. */
  readonly annotations: unknown[];
  /** The tools the server ran (Groq's `executed_tools`), by index: whether their result came. */
  readonly executedTools: Map<number, { answered: boolean }>;
  /** Its spoken answer's id, expiry and size (`delta.audio`). */
  readonly audio: ChoiceAudio;
}

/** A choice's message summary: which choice it is when there are several, and its audio. */
type ChoiceSummary = MessageSummary & { choice_index?: number; audio?: Record<string, unknown> };

/** The agent of a choice's envelopes: the completion's id, with `#index` for every choice but the first. */
export function choiceAgent(completionId: string, index: number): string {
  return index === 0 ? completionId : `${completionId}#${index}`;
}

/** One completion: the chunks that share an id, and its choices. */
export class Completion {
  readonly choices = new Map<number, Choice>();
  usage: Record<string, unknown> | undefined;
  /** The sources its chunks name, as the last chunk naming any gave them (see noteSources). */
  sources: readonly unknown[] = [];

  constructor(
    public id: string,
    public model: string,
    /** When its first chunk arrived: where every choice's time to first token counts from. */
    readonly startedAt: number,
  ) {}

  choice(index: number, frame: Frame): Choice {
    const existing = this.choices.get(index);
    if (existing) return existing;
    const choice: Choice = {
      index,
      agent: choiceAgent(this.id, index),
      clock: new MessageClock(this.startedAt),
      open: undefined,
      deltaEvent: undefined,
      tools: new ToolCalls(),
      finish: undefined,
      finishedAt: undefined,
      lastFrame: frame,
      content: new AssistantContent(),
      clientCalls: [],
      reasoningDetails: new ReasoningDetails(),
      annotations: [],
      executedTools: new Map(),
      audio: new ChoiceAudio(),
    };
    this.choices.set(index, choice);
    return choice;
  }

  /**
   * Perplexity names the sources of its answer on every chunk (docs/protocols/openai-chat.md):
   * `search_results` (title, url, date), and `citations` (their URLs), from older servers alone.
   */
  noteSources(event: Record<string, unknown>): void {
    const results = event['search_results'];
    const sources = Array.isArray(results) && results.length > 0 ? results : event['citations'];
    if (Array.isArray(sources) && sources.length > 0) this.sources = sources;
  }

  /** Every choice seen got its finish_reason (and there was one). */
  finished(): boolean {
    if (this.choices.size === 0) return false;
    for (const choice of this.choices.values()) if (choice.finish === undefined) return false;
    return true;
  }

  /**
   * A choice's message summary. The usage chunk counts the whole completion: with several
   * choices each summary shows it, says which choice it is, and leaves out the tokens per
   * second, which one choice's share of the tokens would take.
   */
  summary(choice: Choice, endedAt: number): ChoiceSummary {
    const clock = choice.clock;
    clock.id = this.id;
    clock.model = this.model;
    clock.usage = this.usage ? summaryUsage(this.usage) : undefined;
    const summary: ChoiceSummary = clock.summary(choice.finishedAt ?? endedAt);
    const audio = choice.audio.summary();
    if (audio) summary.audio = audio;
    if (this.choices.size > 1) {
      delete summary.output_tokens_per_second;
      summary.choice_index = choice.index;
    }
    return summary;
  }
}
