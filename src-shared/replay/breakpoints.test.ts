import { describe, expect, it } from 'vitest';
import {
  createBreakpointMatcher,
  describeBreakpoint,
  withBreakpoint,
  withoutBreakpoint,
  type Breakpoint,
  type BreakpointEnvelope,
} from './breakpoints';

/** Envelopes in order; one starts a block when its agent's envelope before it was of another type. */
const stream = (items: [type: string, agent: string][]): BreakpointEnvelope[] =>
  items.map(([type, agent], seq) => {
    const before = items
      .slice(0, seq)
      .filter(([, a]) => a === agent)
      .at(-1);
    return { seq, type, agent, startsBlock: before?.[0] !== type };
  });

/** The seqs where the matcher reports a hit, over a whole stream. */
function hitsOver(breakpoints: Breakpoint[], envelopes: BreakpointEnvelope[]): [number, string][] {
  const matcher = createBreakpointMatcher(breakpoints);
  return envelopes.flatMap((e) =>
    matcher.envelope(e).map((hit): [number, string] => [hit.envelope, describeBreakpoint(hit.breakpoint)]),
  );
}

const RUN = stream([
  ['meta_init', 'm'],
  ['text', 'm'],
  ['text', 'm'],
  ['tool_call', 'm'],
  ['meta_init', 's'],
  ['text', 's'],
  ['text', 'm'],
  ['text', 'm'],
  ['awaiting_frontend_tools', 'm'],
  ['awaiting_frontend_tools', 'm'],
  ['meta_final', 'm'],
]);

describe('breakpoint matcher', () => {
  it('hits a type at the first envelope of each run of that type, not on every delta', () => {
    expect(hitsOver([{ kind: 'type', type: 'text' }], RUN)).toEqual([
      [1, 'type text'],
      [5, 'type text'],
    ]);
  });

  it('hits awaiting_frontend_tools once, at its first chunk', () => {
    expect(hitsOver([{ kind: 'type', type: 'awaiting_frontend_tools' }], RUN)).toEqual([
      [8, 'type awaiting_frontend_tools'],
    ]);
  });

  it('hits an agent each time the stream turns to it', () => {
    expect(hitsOver([{ kind: 'agent', agent: 's' }], RUN)).toEqual([[4, 'agent s']]);
    expect(hitsOver([{ kind: 'agent', agent: 'm' }], RUN)).toEqual([
      [0, 'agent m'],
      [6, 'agent m'],
    ]);
  });

  it('reports every breakpoint that hits on one envelope, each with its own run', () => {
    expect(
      hitsOver(
        [
          { kind: 'agent', agent: 's' },
          { kind: 'type', type: 'text' },
        ],
        RUN,
      ),
    ).toEqual([
      [1, 'type text'],
      [4, 'agent s'],
      [5, 'type text'],
    ]);
  });

  it('never hits without breakpoints, or for a type or agent that is not in the stream', () => {
    expect(hitsOver([], RUN)).toEqual([]);
    expect(
      hitsOver(
        [
          { kind: 'type', type: 'error' },
          { kind: 'agent', agent: 'nobody' },
        ],
        RUN,
      ),
    ).toEqual([]);
  });

  it('hits an error finding, the first of several found together, and ignores warnings', () => {
    const matcher = createBreakpointMatcher([{ kind: 'error' }]);
    expect(matcher.findings([{ severity: 'warning', rule: 'w', message: 'mild', envelope: 2 }])).toBeNull();
    expect(
      matcher.findings([
        { severity: 'info', rule: 'i', message: 'note', envelope: 3 },
        { severity: 'error', rule: 'json.invalid', message: 'broken', envelope: 4 },
        { severity: 'error', rule: 'other', message: 'also', envelope: 4 },
      ]),
    ).toEqual({ breakpoint: { kind: 'error' }, envelope: 4, rule: 'json.invalid', message: 'broken' });
    // A later error is a new hit.
    expect(matcher.findings([{ severity: 'error', rule: 'x', message: 'again', envelope: 9 }])?.envelope).toBe(9);
  });

  it('hits an agent starting a block on each block it starts, not at every switch back to it', () => {
    const interleaved = stream([
      ['text', 'm'],
      ['text', 's'],
      ['text', 'm'],
      ['text', 's'],
      ['text', 'm'],
      ['tool_call', 'm'],
      ['text', 's'],
    ]);
    expect(hitsOver([{ kind: 'agent', agent: 'm' }], interleaved).map(([seq]) => seq)).toEqual([0, 2, 4]);
    expect(hitsOver([{ kind: 'agent-block', agent: 'm' }], interleaved)).toEqual([
      [0, 'agent m starts a block'],
      [5, 'agent m starts a block'],
    ]);
  });

  it('keeps an agent breakpoint and an agent-block one on the same agent apart', () => {
    const list = withBreakpoint([{ kind: 'agent', agent: 'm' }], { kind: 'agent-block', agent: 'm' });
    expect(list).toHaveLength(2);
    expect(withoutBreakpoint(list, { kind: 'agent-block', agent: 'm' })).toEqual([{ kind: 'agent', agent: 'm' }]);
  });

  it('ignores findings without an error breakpoint', () => {
    const matcher = createBreakpointMatcher([{ kind: 'type', type: 'text' }]);
    expect(matcher.findings([{ severity: 'error', rule: 'x', message: 'y', envelope: 0 }])).toBeNull();
  });

  it('keeps a constant state over a long stream (one million envelopes, two hits)', () => {
    const matcher = createBreakpointMatcher([{ kind: 'type', type: 'tool_call' }]);
    let hits = 0;
    for (let seq = 0; seq < 1_000_000; seq++)
      hits += matcher.envelope({
        seq,
        type: seq === 10 || seq === 999_999 ? 'tool_call' : 'text',
        agent: 'a',
        startsBlock: false,
      }).length;
    expect(hits).toBe(2);
  });
});

describe('breakpoint lists', () => {
  it('adds without duplicates and removes by value', () => {
    let list = withBreakpoint([], { kind: 'error' });
    list = withBreakpoint(list, { kind: 'type', type: 'text' });
    list = withBreakpoint(list, { kind: 'type', type: 'text' });
    list = withBreakpoint(list, { kind: 'error' });
    expect(list).toEqual([{ kind: 'error' }, { kind: 'type', type: 'text' }]);
    expect(withoutBreakpoint(list, { kind: 'type', type: 'text' })).toEqual([{ kind: 'error' }]);
    expect(withoutBreakpoint(list, { kind: 'agent', agent: 'x' })).toEqual(list);
  });

  it('describes a breakpoint with the agent named as the UI names it', () => {
    expect(describeBreakpoint({ kind: 'agent', agent: 'uuid-1' }, () => 'sub 1')).toBe('agent sub 1');
    expect(describeBreakpoint({ kind: 'error' })).toBe('error finding');
  });
});
