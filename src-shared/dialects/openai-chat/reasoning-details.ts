import { isJsonObject } from '../../json/values';

/** The members of a reasoning detail whose pieces stream one after the other: joined. */
const JOINED: ReadonlySet<string> = new Set(['text', 'summary', 'data']);

/**
 * OpenRouter's `delta.reasoning_details[]`: the model's reasoning as its provider gave it
 * (`reasoning.text` with Anthropic's `signature`, `reasoning.summary`, `reasoning.encrypted`
 * with its `data`), streamed in pieces that share an `index`. OpenRouter asks a client to send
 * them back, whole, in the assistant message of a tool loop, or the reasoning is lost (and
 * Anthropic's thinking refuses a tool result without its signed thinking): the pieces are
 * joined per index as its SDKs join them, a text's pieces appended, a signature or id kept
 * from the piece that carries it.
 */
export class ReasoningDetails {
  private readonly byIndex = new Map<number, Record<string, unknown>>();

  add(details: readonly unknown[]): void {
    details.forEach((detail, position) => {
      if (!isJsonObject(detail)) return;
      const index =
        typeof detail['index'] === 'number' && Number.isInteger(detail['index']) ? detail['index'] : position;
      const joined = this.byIndex.get(index) ?? {};
      this.byIndex.set(index, joined);
      for (const [key, value] of Object.entries(detail)) {
        const before = joined[key];
        if (JOINED.has(key) && typeof value === 'string' && typeof before === 'string') joined[key] = before + value;
        // A later piece's empty or null member never hides what an earlier one said.
        else if ((value !== null && value !== '') || !Object.hasOwn(joined, key))
          Object.defineProperty(joined, key, { value, enumerable: true, writable: true, configurable: true });
      }
    });
  }

  /** The details joined, by index; empty when the stream sent none. */
  list(): Record<string, unknown>[] {
    return [...this.byIndex.entries()].sort(([a], [b]) => a - b).map(([, detail]) => detail);
  }
}
