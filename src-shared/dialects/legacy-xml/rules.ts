import type { RuleInfo } from '../../diagnostics/rules';
import type { DialectId } from '../registry';

/** The dialects that carry the agent layer's XML items: legacy XML, and the raw format's items between its Anthropic events. */
const XML_ITEMS: readonly DialectId[] = ['xml', 'raw'];

/** The rules of the agent layer's XML items (docs/diagnostics.md), spread into the catalogue (diagnostics/rules.ts). */
export const XML_ITEM_RULES = {
  'xml.unclosed': { severity: 'error', layer: 'xml', title: 'Tag opened and never closed', dialects: XML_ITEMS },
  'xml.mismatched': {
    severity: 'error',
    layer: 'xml',
    title: 'Closing tag does not match the open tag',
    dialects: XML_ITEMS,
  },
  'xml.unknown-tag': {
    severity: 'warning',
    layer: 'xml',
    title: 'Tag is not part of the XML stream vocabulary',
    dialects: XML_ITEMS,
  },
  'xml.bad-entity': {
    severity: 'warning',
    layer: 'xml',
    title: 'Unknown or malformed character entity',
    dialects: XML_ITEMS,
  },
  'xml.broken-cdata': {
    severity: 'error',
    layer: 'xml',
    title: 'CDATA section is broken (unterminated or ended early by an unprotected ]]>)',
    dialects: XML_ITEMS,
  },
  'xml.attr-json': { severity: 'error', layer: 'xml', title: 'Attribute JSON does not parse', dialects: XML_ITEMS },
  'xml.malformed': {
    severity: 'error',
    layer: 'xml',
    title: 'Item is not a well-formed stream item',
    dialects: XML_ITEMS,
  },
  'xml.subagent-unattributed': {
    severity: 'info',
    layer: 'xml',
    title: 'Sub-agent output cannot be attributed in XML/raw streams',
    dialects: XML_ITEMS,
  },
  'xml.legacy-tag-name': {
    severity: 'info',
    layer: 'xml',
    title: 'Older tag name used for a server tool',
    dialects: XML_ITEMS,
  },
  'xml.overlapping-blocks': {
    severity: 'error',
    layer: 'xml',
    title: 'Block opened while another block is still open (interleaved sub-agents); deltas cannot be routed',
    dialects: XML_ITEMS,
  },
  'xml.unescaped-stream': {
    severity: 'warning',
    layer: 'xml',
    title: 'Items are not SSE-escaped (stream predates upstream escaping); taken verbatim',
    dialects: XML_ITEMS,
  },
} as const satisfies Record<string, RuleInfo>;
