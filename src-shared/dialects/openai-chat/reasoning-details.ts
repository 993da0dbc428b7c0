import { isJsonObject } from '../../json/values';

/** The members of a reasoning detail whose pieces stream one after the other: joined. */
const JOINED: ReadonlySet<string> = new Set(['text', 'summary', 'data']);

/**
 * OpenRouter's `delta.reasoning_details[]`: the model's reasoning as its provider gave it
 * (`reasoning.text` with Anthropic's `signature`, `reasoning.summary`, `reasoning.encrypted`
 * with its `data`), streamed in pieces that share an `index`. OpenRouter asks a client to send
 * them back, whole, in the assistant message of a tool loop, or the reasoning is lost (and
 * Anthropic's thinking refuses a tool result without its signed thinking): the pieces are
 * joined per index and type as its SDKs join them, a text's pieces appended, a signature or id
 * kept from the piece that carries it. Pieces of another type under the same index are another
 * detail (a `reasoning.text` and then the `reasoning.encrypted` that seals it, both at index 0):
 * merged, the encrypted one took the text's place and the text was lost from the reply.
 */
export class ReasoningDetails {
  /** The joined details by index and type, in the order each first came. */
  private readonly joined = new Map<string, { index: number; detail: Record<string, unknown> }>();

  add(details: readonly unknown[]): void {
    details.forEach((detail, position) => {
      if (!isJsonObject(detail)) return;
      const index =
        typeof detail['index'] === 'number' && Number.isInteger(detail['index']) ? detail['index'] : position;
      const type = typeof detail['type'] === 'string' ? detail['type'] : '';
      const key = `${index}\u0000${type}`;
      const entry = this.joined.get(key) ?? { index, detail: {} };
      this.joined.set(key, entry);
      const joined = entry.detail;
      for (const [key, value] of Object.entries(detail)) {
        const before = joined[key];
        if (JOINED.has(key) && typeof value === 'string' && typeof before === 'string') joined[key] = before + value;
        // A later piece's empty or null member never hides what an earlier one said.
        else if ((value !== null && value !== '') || !Object.hasOwn(joined, key))
          Object.defineProperty(joined, key, { value, enumerable: true, writable: true, configurable: true });
      }
    });
  }

  /** The details joined, by index (those of one index in the order their types came); empty when the stream sent none. */
  list(): Record<string, unknown>[] {
    // A stable sort: details of one index keep the order they came in.
    return [...this.joined.values()].sort((a, b) => a.index - b.index).map((entry) => entry.detail);
  }
}
