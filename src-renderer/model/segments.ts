import type { SegmentPayload } from '../../src-shared/contract';

/**
 * How the blocks view presents a text block's segments (docs/inline.md). Pure: the component
 * only lays out what this decides.
 */

export type SegmentPresentation =
  'text' | 'reasoning' | 'tool-call' | 'completion' | 'file' | 'command' | 'tool-result' | 'other';

export function segmentPresentation(type: string): SegmentPresentation {
  switch (type) {
    case 'text':
      return 'text';
    case 'reasoning':
      return 'reasoning';
    case 'tool_call':
      return 'tool-call';
    case 'completion':
      return 'completion';
    case 'write_file':
    case 'patch_file':
      return 'file';
    case 'run_bash':
      return 'command';
    case 'tool_result':
      return 'tool-result';
    default:
      return 'other';
  }
}

const SEGMENT_LABELS: Readonly<Record<string, string>> = {
  text: 'text',
  reasoning: 'reasoning',
  tool_call: 'tool call',
  completion: 'completion',
  write_file: 'write file',
  patch_file: 'patch file',
  run_bash: 'bash',
  tool_result: 'tool result',
};

export function segmentLabel(type: string): string {
  return SEGMENT_LABELS[type] ?? type;
}

/** A text block is worth showing as segments when the model wrote some protocol in it. */
export function hasProtocolSegments(
  segments: readonly SegmentPayload[] | undefined,
): segments is readonly SegmentPayload[] {
  return segments !== undefined && segments.some((s) => s.type !== 'text');
}

/** A string metadata field (`tool_name`, `path`), or undefined. */
export function metadataText(segment: SegmentPayload, key: string): string | undefined {
  const value = segment.metadata[key];
  return typeof value === 'string' ? value : undefined;
}

/** Metadata fields other than the ones the header shows, as display strings. */
export function otherMetadata(segment: SegmentPayload): [string, string][] {
  return Object.entries(segment.metadata)
    .filter(([key]) => key !== 'tool_name' && key !== 'path')
    .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]);
}

/** What a file segment's content is, for the label on its code view. */
export function fileLanguage(segment: SegmentPayload): string {
  if (segment.type === 'patch_file') return 'diff';
  const path = metadataText(segment, 'path') ?? '';
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') && dot >= 0 ? path.slice(dot + 1).toLowerCase() : 'text';
}
