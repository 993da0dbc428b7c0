import { describe, expect, it } from 'vitest';
import { matchAgents, type AgentNode } from './agents';

const node = (uuid: string, parent: string | null = null): AgentNode => ({ uuid, parent });

describe('matchAgents', () => {
  it('pairs the same uuids first', () => {
    expect(matchAgents([node('a'), node('b', 'a')], [node('b', 'a'), node('a')])).toEqual([
      { left: 'a', right: 'a', by: 'uuid' },
      { left: 'b', right: 'b', by: 'uuid' },
    ]);
  });

  it('pairs two runs by their tree: roots, then children in order of appearance', () => {
    const left = [node('p'), node('c1', 'p'), node('c2', 'p'), node('g', 'c2')];
    const right = [node('P'), node('C1', 'P'), node('C2', 'P'), node('G', 'C2')];
    expect(matchAgents(left, right)).toEqual([
      { left: 'p', right: 'P', by: 'structure' },
      { left: 'c1', right: 'C1', by: 'structure' },
      { left: 'c2', right: 'C2', by: 'structure' },
      { left: 'g', right: 'G', by: 'structure' },
    ]);
  });

  it('pairs children under parents matched by uuid', () => {
    expect(matchAgents([node('p'), node('x', 'p')], [node('p'), node('y', 'p')])).toEqual([
      { left: 'p', right: 'p', by: 'uuid' },
      { left: 'x', right: 'y', by: 'structure' },
    ]);
  });

  it('pairs what the tree leaves by order, and keeps the rest unmatched', () => {
    // Left child under p; right has the same count of agents but a flat tree.
    const pairs = matchAgents([node('p'), node('x', 'p'), node('z', 'p')], [node('q'), node('y')]);
    expect(pairs).toEqual([
      { left: 'p', right: 'q', by: 'structure' },
      { left: 'x', right: 'y', by: 'order' },
      { left: 'z', by: 'unmatched' },
    ]);
  });

  it('lists agents seen on the right only after the left ones', () => {
    expect(matchAgents([node('a')], [node('a'), node('b', 'a'), node('c', 'a')])).toEqual([
      { left: 'a', right: 'a', by: 'uuid' },
      { right: 'b', by: 'unmatched' },
      { right: 'c', by: 'unmatched' },
    ]);
  });
});
