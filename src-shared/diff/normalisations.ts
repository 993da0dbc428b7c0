/**
 * The normalisations the diff may apply before comparing two blocks. Each one removes a
 * difference that the wire formats make by construction (docs/format-equivalence.md) and
 * nothing else; a row lists the ones that changed what was compared, so a user can read
 * "equal after normalising JSON spacing" (the label completes "equal after normalising …").
 * Everything not covered here is a real difference.
 */
import type { Explanation } from './types';

export const NORMALISATIONS = {
  'json-value': {
    label: 'JSON spacing and escapes',
    description:
      'JSON payload compared as a parsed value: Python json.dumps spacing vs compact, ensure_ascii escapes, key order',
  },
  'meta-format-field': {
    label: 'meta_init format',
    description: 'meta_init "format" names the wire format of the stream, so it differs by definition',
  },
  'history-key': {
    label: 'history key',
    description: 'history not compared: legacy message_history / conversation_history vs agent_base conversation_log',
  },
  'meta-final-generation': {
    label: 'meta_final schema',
    description:
      'the two server generations send different meta_final schemas: only stop_reason, total_steps and input/output tokens are compared',
  },
  'awaiting-tools-object': {
    label: 'awaiting {"tools"}',
    description: 'awaiting_frontend_tools: agent_base wraps the pending-tool array in {"tools": […]}',
  },
  'server-tool-result-repr': {
    label: 'server tool result repr',
    description:
      'raw carries the server tool result as structured JSON; json and xml send json.dumps(default=str) of the SDK objects, a JSON string of their Python repr',
  },
  'xml-citation-empty': {
    label: 'xml empty citation fields',
    description:
      'xml writes a null citation field as "" and its decoder drops it, so an empty-string field is not compared',
  },
  'xml-tool-result-newlines': {
    label: 'tool result newlines',
    description:
      'xml/raw tool_result CDATA turns CR and CRLF into LF and writes LF as "\\n", so a literal backslash-n reads as a newline',
  },
  'tool-result-images': {
    label: 'agent_base images',
    description: 'agent_base flattens a multimodal tool result to text and sends no tool_result_image',
  },
  'agent-attribution': {
    label: 'agent attribution',
    description: 'xml/raw items carry no agent id, so blocks are aligned across agents and the agent is not compared',
  },
  'run-agent-uuids': {
    label: 'per-run agent uuids',
    description:
      'two runs of one scenario: every run has new agent uuids, so inside block contents (meta_init agent_uuid and parent_agent_uuid, "Agent UUID: …" in spawn results, meta_final history) each left agent\'s uuid reads as its paired right agent\'s',
  },
  'thinking-signature': {
    label: 'thinking signatures',
    description:
      'two runs of one scenario: the API signs every thinking block anew, so the signature of a thinking block in the meta_init/meta_final history is not compared',
  },
  'timing-fields': {
    label: 'timing',
    description:
      "a message block's time to first token, duration and output tokens per second are measured by each run's clock, so they are not compared",
  },
  'tool-order': {
    label: 'tool order',
    description: 'a tool block matched out of order: parallel tools finish, and their results stream, in any order',
  },
} as const satisfies Record<string, Explanation>;

export type NormalisationId = keyof typeof NORMALISATIONS;
