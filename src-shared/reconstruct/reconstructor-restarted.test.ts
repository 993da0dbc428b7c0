import { describe, expect, it } from 'vitest';
import { session } from './reconstructor-harness';

describe('block.restarted', () => {
  const attempt = [
    'I nee',
    'd to calculate 5 + (10',
    ' * 2) following',
    ' the order of operations (multiplication first,',
  ];
  const full = [...attempt, ' then addition).', ' Done.'];

  it('triggers when the open block receives its own first deltas again: the first attempt is abandoned', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(full);
    s.r.end();
    expect(s.rules()).toEqual(['block.restarted']);
    const texts = s.kinds('text');
    expect(texts.map((b) => [b.status, b.content])).toEqual([
      ['abandoned', attempt.join('')],
      ['complete', full.join('')],
    ]);
    expect(texts[0]).toMatchObject({ replacedBy: texts[1]?.id, envelopes: [0, 1, 2, 3], byteStart: 0 });
    expect(texts[1]).toMatchObject({ replaces: texts[0]?.id, envelopes: [4, 5, 6, 7, 8, 9, 10] });
    expect(texts[0]?.byteEnd).toBe(texts[1]?.byteStart);
  });

  it('attaches later citations to the replay, not the abandoned attempt', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(full);
    s.final('citation', 'c', { extras: { citation_type: 'char_location' } });
    expect(s.kinds('text').map((b) => b.citations.length)).toEqual([0, 1]);
  });

  it('triggers for a one-delta attempt of at least 8 characters', () => {
    const s = session();
    s.push('text', 'I need to');
    s.text(['I need to', ' go.']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['I need to', 'I need to go.']);
  });

  it('triggers when the final marker follows the replayed attempt at once', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(attempt);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([
      ['abandoned', attempt.join('')],
      ['complete', attempt.join('')],
    ]);
  });

  it('triggers when an explicit open (XML start tag) arrives while the block is open', () => {
    const s = session();
    s.push('text', '', { control: 'block-open' });
    s.push('text', 'partial');
    s.push('text', '', { control: 'block-open' });
    s.text(['whole']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([
      ['abandoned', 'partial'],
      ['complete', 'whole'],
    ]);
  });

  it('is not reported when a short first delta merely recurs later in the text', () => {
    const s = session();
    s.text(['.', ' and', '.', ' or', '.']);
    s.text(['The', ' cat', '. ', 'The', ' dog', '. ', 'The', ' end']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['. and. or.', 'The cat. The dog. The end']);
  });

  it('is not reported when the first deltas recur but the replay diverges before it is confirmed', () => {
    const s = session();
    s.text(['Step one', ', step two', ', step three', ' — ', 'Step one', ', step two', ', step four']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported when only the first deltas recur: the whole first attempt must be replayed', () => {
    const s = session();
    s.text([
      'Step one',
      ', step two',
      ', step three',
      ', step four',
      ' and again: ',
      'Step one',
      ', step two',
      ', step three',
      ', and done.',
    ]);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported for a first attempt under 8 characters that recurs', () => {
    const s = session();
    s.text(['ha', 'ha', 'ha', ' ok']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['hahaha ok']);
  });

  it('is not reported for text that repeats its opening lines: a cut call stops mid-line', () => {
    const s = session();
    const deltas = ['import os', '\n', 'import os', '\n', '\n', 'print(os.getcwd())', '\n'];
    s.text(deltas);
    s.r.end();
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([['complete', deltas.join('')]]);
  });

  it('is not reported for a block of identical deltas, however long', () => {
    const s = session();
    const deltas = Array.from({ length: 200 }, () => 'ab');
    s.text(deltas);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual([deltas.join('')]);
  });

  it('is not reported for a block that repeats a run of several deltas', () => {
    const s = session();
    s.text(Array.from({ length: 120 }, (_, i) => ['ha', '!', ' '][i % 3] as string));
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported for a block that cycles through the same words again and again', () => {
    const s = session();
    const words = ['the ', 'stream ', 'inspector ', 'décode ', 'chaque '];
    s.text(Array.from({ length: 50 }, (_, i) => words[i % words.length] as string));
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('still triggers when a first attempt that repeats itself inside is replayed after other text', () => {
    const s = session();
    const first = ['ab', 'ab', ' then something else'];
    for (const d of first) s.push('text', d);
    s.text([...first, ' and the end.']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => b.content)).toEqual([first.join(''), `${first.join('')} and the end.`]);
  });

  it('is not reported for the same text in two closed blocks', () => {
    const s = session();
    s.text(attempt);
    s.text(attempt);
    expect(s.count('block.restarted')).toBe(0);
  });
});
