/** The fuzz grammar of JSON envelopes (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import type { EnvelopeKind } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { AGENT_IDS, int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/**
 * Known kinds (checked against the envelope table) and one end-turn hook type the table
 * deliberately lacks. The list, not the table, so that a kind added to the table does not
 * shift every seeded case.
 */
const ENVELOPE_TYPES = [
  'meta_init',
  'thinking',
  'text',
  'citation',
  'tool_call',
  'server_tool_call',
  'tool_result',
  'tool_result_image',
  'server_tool_result',
  'awaiting_frontend_tools',
  'meta_files',
  'error',
  'meta_final',
  'rollback',
  'hook_progress',
] satisfies readonly (EnvelopeKind | 'hook_progress')[];

/** An envelope with every type, fields missing or mistyped now and then, ids, extras and nested values. */
function jsonEnvelope(random: Random): string {
  const envelope: Record<string, unknown> = {};
  const type = pick(random, ENVELOPE_TYPES);
  if (random() < 0.95) envelope['type'] = random() < 0.97 ? type : jsonValue(random);
  if (random() < 0.95) envelope['agent'] = random() < 0.97 ? pick(random, AGENT_IDS) : jsonValue(random);
  if (random() < 0.95) envelope['final'] = random() < 0.95 ? random() < 0.3 : jsonValue(random);
  if (random() < 0.95) {
    const payload =
      type.startsWith('meta_') || type.includes('tool')
        ? jsonText({ format: 'json', agent_uuid: pick(random, AGENT_IDS), value: jsonValue(random) })
        : text(random);
    envelope['delta'] = random() < 0.95 ? payload : jsonValue(random);
  }
  if (random() < 0.3) envelope['id'] = `toolu_${int(random, 4)}`;
  if (random() < 0.3) envelope['name'] = pick(random, ['multiply', 'user_confirm', 'web_search']);
  if (random() < 0.1) envelope['extra'] = jsonValue(random);
  return jsonText(envelope);
}

export const fuzzGrammar: FuzzDialect = { event: jsonEnvelope };
