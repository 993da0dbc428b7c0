import { describe, expect, it } from 'vitest';
import { agentsOf, agentTreeOrder, labelAgents, shortId, withAgentNames } from './agents';

describe('agent labels', () => {
  const agents = [
    { uuid: 'child-2', parent: 'root', firstEnvelope: 9 },
    { uuid: 'root', parent: null, firstEnvelope: 0 },
    { uuid: 'child-1', parent: 'root', firstEnvelope: 5 },
    { uuid: 'grandchild', parent: 'child-1', firstEnvelope: 7 },
  ];

  it('says the blocks of a stream that names no agent are unattributed, never "0 agents"', () => {
    expect(agentsOf(labelAgents([], ['']))).toBe('unattributed');
    expect(agentsOf(labelAgents(agents, ['']))).toBe('4 agents');
    expect(agentsOf(labelAgents([agents[1]!]))).toBe('1 agent');
  });

  it('names agents by their place in the spawn tree, in spawn order', () => {
    const labels = labelAgents(agents);
    expect([...labels.values()].map((l) => [l.uuid, l.name, l.depth, l.parent])).toEqual([
      ['root', 'main', 0, null],
      ['child-1', 'sub 1', 1, 'root'],
      ['grandchild', 'sub 1.1', 2, 'child-1'],
      ['child-2', 'sub 2', 1, 'root'],
    ]);
  });

  it('gives every agent a distinct colour while the palette lasts', () => {
    const colours = [...labelAgents(agents).values()].map((l) => l.colour);
    expect(new Set(colours).size).toBe(colours.length);
  });

  it('orders parents before their children for lanes and filters', () => {
    expect(agentTreeOrder(labelAgents(agents)).map((l) => l.name)).toEqual(['main', 'sub 1', 'sub 1.1', 'sub 2']);
  });

  it('adds agents seen only in rows as further roots, and an unknown parent makes a root', () => {
    const labels = labelAgents([{ uuid: 'orphan', parent: 'missing', firstEnvelope: 0 }], ['orphan', 'from-rows']);
    expect([...labels.values()].map((l) => l.name)).toEqual(['main', 'main 2']);
  });

  it('shortens uuids and names the empty agent', () => {
    expect(shortId('22222222-2222-4222-8222-222222222222')).toBe('22222222');
    expect(shortId('')).toBe('(none)');
    // Other ids: whole when short, else cut with an ellipsis that says so.
    expect(shortId('task-quota')).toBe('task-quota');
    expect(shortId('chatcmpl-9x8y7z6w5v4u')).toBe('chatcmpl-9x…');
    expect(shortId('msg_01XFDUDYJgAACzvnptvVoYEL')).toBe('msg_01XFDUD…');
  });
});

describe('agent names in findings', () => {
  const MAIN = '2817a39b-0000-4000-8000-000000000000';
  const SUB = 'c0ffee00-0000-4000-8000-000000000000';
  const labels = labelAgents([
    { uuid: MAIN, parent: null, firstEnvelope: 0 },
    { uuid: SUB, parent: MAIN, firstEnvelope: 3 },
  ]);

  it('names each known agent as the views do; an unknown one keeps its uuid', () => {
    expect(withAgentNames(`text block #2 of agent ${MAIN} was never finalised.`, labels)).toBe(
      'text block #2 of main was never finalised.',
    );
    expect(withAgentNames(`tool_call t1 block #5 of agent ${SUB}, then agent ${MAIN}: x`, labels)).toBe(
      'tool_call t1 block #5 of sub 1, then main: x',
    );
    expect(withAgentNames('text block #1 of agent deadbeef: cut', labels)).toBe('text block #1 of agent deadbeef: cut');
    expect(withAgentNames('the unattributed agent "" spoke', labels)).toBe('the unattributed agent "" spoke');
  });
});
