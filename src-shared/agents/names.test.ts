import { describe, expect, it } from 'vitest';
import { agentsPhrase, MAX_INDENT, MAX_PATH_DEPTH, nameAgents, type NamedAgentInput } from './names';

/** `depth` agents, each the child of the one before. */
function chain(depth: number): NamedAgentInput[] {
  return Array.from({ length: depth }, (_, n) => ({
    uuid: `a${n}`,
    parent: n === 0 ? null : `a${n - 1}`,
    firstEnvelope: n,
  }));
}

describe('agent names', () => {
  it('numbers children under their parent while the path is short', () => {
    const names = nameAgents([
      { uuid: 'm', parent: null, firstEnvelope: 0 },
      { uuid: 's1', parent: 'm', firstEnvelope: 1 },
      { uuid: 's2', parent: 'm', firstEnvelope: 2 },
      { uuid: 's21', parent: 's2', firstEnvelope: 3 },
      { uuid: 's211', parent: 's21', firstEnvelope: 4 },
      { uuid: 'm2', parent: null, firstEnvelope: 5 },
    ]);
    expect([...names.values()].map((n) => n.name)).toEqual([
      'main',
      'sub 1',
      'sub 2',
      'sub 2.1',
      'sub 2.1.1',
      'main 2',
    ]);
  });

  it('stays short whatever the depth: past the path depth, an agent is named by its depth and index', () => {
    const names = [...nameAgents(chain(5000)).values()];
    expect(names.slice(0, MAX_PATH_DEPTH + 2).map((n) => n.name)).toEqual([
      'main',
      'sub 1',
      'sub 1.1',
      'sub 1.1.1',
      'sub d4#1',
    ]);
    expect(names.at(-1)).toMatchObject({ name: 'sub d4999#1', depth: 4999, indent: MAX_INDENT });
    expect(Math.max(...names.map((n) => n.name.length))).toBeLessThan(16);
    expect(new Set(names.map((n) => n.name)).size).toBe(names.length);
  });

  it('numbers the agents at one depth in the order they started, across parents', () => {
    const deep = chain(MAX_PATH_DEPTH + 2);
    const parent = deep.at(-2)!.uuid;
    const names = nameAgents([...deep, { uuid: 'sibling', parent, firstEnvelope: 100 }]);
    expect(names.get(deep.at(-1)!.uuid)?.name).toBe(`sub d${MAX_PATH_DEPTH + 1}#1`);
    expect(names.get('sibling')?.name).toBe(`sub d${MAX_PATH_DEPTH + 1}#2`);
  });
});

describe('agentsPhrase', () => {
  it('says "unattributed" for blocks of no agent, never "0 agents"', () => {
    expect(agentsPhrase(0, true)).toBe('unattributed');
  });

  it('counts the named agents otherwise, the unattributed rows beside them being no agent', () => {
    expect(agentsPhrase(0, false)).toBe('0 agents');
    expect(agentsPhrase(1, false)).toBe('1 agent');
    expect(agentsPhrase(1, true)).toBe('1 agent');
    expect(agentsPhrase(1200, false, (n) => n.toLocaleString('en'))).toBe('1,200 agents');
  });
});
