import { describe, expect, it } from 'vitest';
import type { Open } from './segments';
import { createTurnChecks, type TurnChecks } from './turn';
import { DEFAULT_TOOL_TAGS, type InlineRuleId } from './types';

function checks(): { turn: TurnChecks; found: [InlineRuleId, number][] } {
  const found: [InlineRuleId, number][] = [];
  const turn = createTurnChecks(
    (rule, _message, offset) => found.push([rule, offset]),
    new Map(DEFAULT_TOOL_TAGS.map((t) => [t.name, t])),
  );
  return { turn, found };
}

const segment = (family: Open['family'], tag: string, params: Record<string, string> = {}, type = tag): Open => ({
  family,
  tag,
  started: true,
  type,
  metadata: {},
  start: 0,
  deferred: '',
  params,
  contentArg: [],
});

describe('the turn checks', () => {
  it('a turn with one complete action and nothing after it is quiet', () => {
    const { turn, found } = checks();
    turn.reasoning(0);
    turn.beginAction('search', 10);
    turn.segmentEnded(segment('action', 'search', { query: 'q' }), true, 40);
    turn.end(40);
    expect(found).toEqual([]);
  });

  it('a second action is reported where it starts, and then nothing after the first is', () => {
    const { turn, found } = checks();
    turn.beginAction('search', 0);
    turn.segmentEnded(segment('action', 'search', { query: 'q' }), true, 20);
    turn.beginAction('attempt_completion', 25);
    turn.checkAfterAction(30, 'text');
    expect(found).toEqual([['inline.multiple-actions', 25]]);
  });

  it('what follows the action is reported once, at its start', () => {
    const { turn, found } = checks();
    turn.beginAction('search', 0);
    turn.segmentEnded(segment('action', 'search', { query: 'q' }), true, 20);
    turn.checkAfterAction(22, 'text');
    turn.reasoning(30);
    expect(found).toEqual([['inline.text-after-action', 22]]);
  });

  it('required parameters come from the tool configuration, the protocol, or a file tool needing its path', () => {
    const { turn, found } = checks();
    turn.segmentEnded(segment('action', 'search'), true, 5);
    turn.segmentEnded(segment('completion', 'attempt_completion'), true, 6);
    turn.segmentEnded(segment('file_tool', 'tool', {}, 'write_file'), true, 7);
    turn.segmentEnded(segment('file_tool', 'tool', {}, 'run_bash'), true, 8);
    turn.segmentEnded(segment('action', 'search'), false, 9);
    expect(found).toEqual([
      ['inline.missing-param', 5],
      ['inline.missing-param', 6],
      ['inline.missing-param', 7],
    ]);
  });

  it('a turn that spoke the protocol without an action is reported at its end; plain text is not', () => {
    const spoke = checks();
    spoke.turn.reasoning(0);
    spoke.turn.end(12);
    expect(spoke.found).toEqual([['inline.no-action', 12]]);
    const plain = checks();
    plain.turn.end(12);
    expect(plain.found).toEqual([]);
  });
});
