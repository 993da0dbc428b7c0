/** The fuzz grammar of the fallback (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/** Names streams no dialect knows use for their events, an empty one and one too long to be a name. */
const NAMES = ['tick', 'quote', 'ping', 'chat.completion.chunk', 'message', 'text', 'error', '', 'x'.repeat(300)];

/** A JSON object typed by `type`, `event` or `object` (or by none, or by a member that is no name). */
function jsonEvent(random: Random): string {
  const event: Record<string, unknown> = {};
  event[pick(random, ['type', 'event', 'object', 'kind', 'agent'])] =
    random() < 0.9 ? pick(random, NAMES) : jsonValue(random);
  for (let n = int(random, 3); n > 0; n--) event[pick(random, ['n', 'data', 'delta', 'final'])] = jsonValue(random);
  return jsonText(event);
}

/** What a stream no dialect claims carries: JSON events mostly, plain text, arrays, and JSON cut short. */
function anyEvent(random: Random): string {
  const roll = random();
  if (roll < 0.7) return jsonEvent(random);
  if (roll < 0.85) return text(random);
  if (roll < 0.93) return jsonText([jsonValue(random), jsonValue(random)]);
  const whole = jsonEvent(random);
  return whole.slice(0, 1 + int(random, whole.length));
}

export const fuzzGrammar: FuzzDialect = { event: anyEvent };
