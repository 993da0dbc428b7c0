import { TextChunks } from './text-chunks';

/** Content text kept for a continuation; past it the assistant message is sent without it (`content: null`). */
const MAX_KEPT_CONTENT_CHARS = 1024 * 1024;

/**
 * A message's content text as the client's assistant message carries it back with its tool
 * results (Chat Completions, Ollama), up to MAX_KEPT_CONTENT_CHARS: a message that calls tools
 * rarely says much first, and one that says more is not held twice over (its blocks hold it).
 */
export class AssistantContent {
  private chunks = new TextChunks();
  private chars = 0;
  private over = false;

  add(text: string): void {
    if (this.over) return;
    this.chars += text.length;
    if (this.chars > MAX_KEPT_CONTENT_CHARS) {
      this.over = true;
      this.chunks = new TextChunks();
    } else this.chunks.push(text);
  }

  /** The content, or null when there was none or more than is kept. */
  text(): string | null {
    return this.over || this.chars === 0 ? null : this.chunks.text();
  }
}
