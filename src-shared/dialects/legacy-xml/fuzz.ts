/** The fuzz grammar of legacy XML items (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import { AGENT_IDS, int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

const XML_TAGS = [
  'text',
  'thinking',
  'tool_call',
  'server_tool_call',
  'tool_result',
  'server_tool_result',
  'citations',
  'meta_files',
  'web_search_tool_result',
  'rollback',
];

/** An attribute value as the server writes it (the decoder reads entities back). */
export function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * An XML item: meta_init, open and close tags, elements with attributes, CDATA with and without
 * its end, mismatched close tags, bad entities, or text (the raw format mixes them in too).
 */
export function xmlItem(random: Random): string {
  const tag = pick(random, XML_TAGS);
  switch (int(random, 7)) {
    case 0:
      return `<meta_init data="${escapeAttribute(jsonText({ format: 'xml', agent_uuid: pick(random, AGENT_IDS), parent_agent_uuid: random() < 0.3 ? pick(random, AGENT_IDS) : null }))}"></meta_init>`;
    case 1:
      return `<content-block-${tag}>`;
    case 2:
      return `</content-block-${tag}>`;
    case 3:
      return `<content-block-${tag} id="toolu_${int(random, 4)}" name="f" arguments="${escapeAttribute(jsonText(jsonValue(random)))}"></content-block-${tag}>`;
    case 4:
      return `<content-block-${tag} id="toolu_${int(random, 4)}" name="f"><![CDATA[${text(random)}${random() < 0.8 ? ']]>' : ''}</content-block-${random() < 0.9 ? tag : pick(random, XML_TAGS)}>`;
    case 5:
      return `<meta_final data="${random() < 0.8 ? escapeAttribute(jsonText(jsonValue(random))) : '&bogus;&#xZZ;&'}"></meta_final>`;
    default:
      return text(random);
  }
}

export const fuzzGrammar: FuzzDialect = { event: xmlItem };
