import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkingBudget, serializeEnvelope, type EnvelopeShape } from './budget';

const agent = (n: number): string => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
const overheadOf = (shape: EnvelopeShape): number =>
  new TextEncoder().encode(serializeEnvelope(shape, false, '')).length;

describe('chunkingBudget', () => {
  afterEach(() => vi.restoreAllMocks());

  it("measures each agent's shape once while agents interleave their chunks", () => {
    const parent = { type: 'tool_call', agent: agent(1), extras: { id: 'toolu_1', name: 'spawn' } };
    const child = { type: 'tool_result', agent: agent(2), extras: { id: 'toolu_2', name: 'read' } };
    const [parentOverhead, childOverhead] = [overheadOf(parent), overheadOf(child)];
    chunkingBudget(parent);
    chunkingBudget(child);
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let i = 0; i < 10; i++) {
      expect(chunkingBudget({ ...parent, extras: { ...parent.extras } }).overhead).toBe(parentOverhead);
      expect(chunkingBudget(child).overhead).toBe(childOverhead);
    }
    expect(stringify).not.toHaveBeenCalled();
  });

  it('measures again when the type, an extra or its value changes, and never trusts an object extra', () => {
    const base = {
      type: 'tool_result',
      agent: agent(3),
      extras: { id: 'toolu_1', name: 'read' } as Record<string, unknown>,
    };
    const shapes: EnvelopeShape[] = [
      base,
      { ...base, type: 'tool_call' },
      { ...base, extras: { id: 'toolu_100', name: 'read' } },
      { ...base, extras: { id: 'toolu_1' } },
      { ...base, extras: { id: 'toolu_1', name: 'read', envelope_log: '[1,2,3]' } },
      { ...base, extras: { name: 'read', id: 'toolu_1' } },
    ];
    for (const shape of [...shapes, ...shapes]) expect(chunkingBudget(shape).overhead).toBe(overheadOf(shape));
    const log = { entries: [1] };
    const withObject = { ...base, extras: { log } };
    expect(chunkingBudget(withObject).overhead).toBe(overheadOf(withObject));
    log.entries.push(22_222);
    expect(chunkingBudget(withObject).overhead).toBe(overheadOf(withObject));
  });

  it('stays right past the number of agents and the characters it remembers', () => {
    const long = 'x'.repeat(300_000);
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 100; n++) {
        const shape = {
          type: 'tool_result',
          agent: agent(n),
          extras: { id: `t${n}`, envelope_log: n % 10 ? 'ok' : long },
        };
        expect(chunkingBudget(shape).overhead).toBe(overheadOf(shape));
      }
    }
  });
});
