/** The fuzz grammar of segment events (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/** A segment event (docs/inline.md), mostly well formed: ids from a small set so starts, contents and ends meet. */
function segmentEvent(random: Random): string {
  const event: Record<string, unknown> = {};
  if (random() < 0.97)
    event['type'] =
      random() < 0.97 ? pick(random, ['SEGMENT_START', 'SEGMENT_CONTENT', 'SEGMENT_END']) : jsonValue(random);
  if (random() < 0.97) event['segment_id'] = random() < 0.97 ? `seg_${int(random, 4)}` : jsonValue(random);
  if (event['type'] === 'SEGMENT_START')
    event['segment_type'] = pick(random, ['text', 'write_file', 'run_bash', 'tool_call', 'reasoning', 'diagram']);
  event['payload'] =
    event['type'] === 'SEGMENT_CONTENT'
      ? { delta: random() < 0.95 ? text(random) : jsonValue(random) }
      : { metadata: random() < 0.5 ? { path: '/a.py' } : {} };
  return jsonText(event);
}

export const fuzzGrammar: FuzzDialect = { event: segmentEvent };
