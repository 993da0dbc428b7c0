import { describe, expect, it } from 'vitest';
import { decodeLegs } from '../pipeline/session-decoder';
import { envelopeFilter } from './index';
import { envelopeSubjects } from './subjects';

const encoder = new TextEncoder();
const text = (delta: string, final = false) =>
  `data: ${JSON.stringify({ type: 'text', agent: 'a', final, delta })}\n\n`;

/** Two text blocks: plain prose, then a model turn that writes an XML tool call in its text. */
const STREAM = encoder.encode(
  [
    text('Just prose here.'),
    text('', true),
    `data: ${JSON.stringify({ type: 'thinking', agent: 'a', final: true, delta: 'x' })}\n\n`,
    text('<thinking>look it up</thinking><sea'),
    text('rch><query>eiffel</query></search>'),
    text('', true),
    'data: [DONE]\n\n',
  ].join(''),
);

describe('segment fields', () => {
  const subjects = envelopeSubjects(decodeLegs([[{ bytes: STREAM }]]));
  const seqs = (filter: string) => subjects.filter(envelopeFilter(filter)).map((s) => s.envelope.seq);

  it('select the envelopes of blocks whose text holds a segment of a type, a tool or a path', () => {
    expect(seqs('segment.type == "tool_call"')).toEqual([3, 4, 5]);
    expect(seqs('segment.type == "reasoning" && segment.tool == "search"')).toEqual([3, 4, 5]);
    expect(seqs('segment.type == "text"')).toEqual([0, 1]);
    expect(seqs('segment.path == "a.txt"')).toEqual([]);
  });

  it('are absent, not empty, on blocks without segments: != holds for none of them', () => {
    expect(seqs('type == "thinking" && segment.type != "tool_call"')).toEqual([]);
  });
});
