import { KNOWN_SEGMENT_TYPES } from '../inline/types';
import type { EnvelopeSubject } from './envelope-fields';
import type { FieldDef } from './fields';

const segmentsOf = (s: EnvelopeSubject) => s.block?.segments ?? [];

/**
 * Fields of the segments in the envelope's block (docs/inline.md): the protocol the model
 * wrote inside its text, or a segment-event stream's segment. Block-level: an envelope of a
 * text block that holds a tool call matches `segment.type == "tool_call"`.
 */
export const SEGMENT_FIELDS: readonly FieldDef<EnvelopeSubject>[] = [
  {
    name: 'segment.type',
    type: 'string',
    values: KNOWN_SEGMENT_TYPES,
    description: "type of any segment in the envelope's block (text, reasoning, tool_call, write_file…)",
    get: (s) => segmentsOf(s).map((segment) => segment.type),
  },
  {
    name: 'segment.tool',
    type: 'string',
    description: "tool name of any tool-call segment in the envelope's block",
    get: (s) =>
      segmentsOf(s).flatMap((segment) =>
        typeof segment.metadata['tool_name'] === 'string' ? [segment.metadata['tool_name']] : [],
      ),
  },
  {
    name: 'segment.path',
    type: 'string',
    description: "file path of any file segment in the envelope's block",
    get: (s) =>
      segmentsOf(s).flatMap((segment) =>
        typeof segment.metadata['path'] === 'string' ? [segment.metadata['path']] : [],
      ),
  },
];
