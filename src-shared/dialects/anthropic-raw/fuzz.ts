/** The fuzz grammar of the agent's raw format (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import type { FuzzDialect, Random } from '../../testing/fuzz';
import { anthropicEvent } from '../anthropic-messages/fuzz';
import { escapeAttribute, xmlItem } from '../legacy-xml/fuzz';

/** The raw format: Anthropic events mixed with the agent layer's XML items. */
function rawEvent(random: Random): string {
  return random() < 0.85 ? anthropicEvent(random) : xmlItem(random);
}

/** Streams mostly open with the meta_init announcing the format: the raw dialect's marker. */
export const fuzzGrammar: FuzzDialect = {
  event: rawEvent,
  opening: `<meta_init data="${escapeAttribute(jsonText({ format: 'raw' }))}"></meta_init>`,
};
