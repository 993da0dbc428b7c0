import { describe, expect, it } from 'vitest';
import { createDialectRegistry, DIALECT_REGISTRY, DIALECTS } from './registry';
import { blockKindLabels, inlineTreatments } from './traits';
import type { DialectModule } from './types';

const extra = (id: string, blockKinds: DialectModule['blockKinds']): DialectModule => ({
  ...DIALECT_REGISTRY.fallback,
  id,
  detect: () => false,
  blockKinds,
});

describe('block kinds the dialects declare', () => {
  it('the built-in registry: text is parsed in every dialect, a segment-events block is one segment', () => {
    const treatments = inlineTreatments(DIALECT_REGISTRY);
    expect([treatments.get('text'), treatments.get('segment'), treatments.get('thinking')]).toEqual([
      'parse',
      'segment',
      undefined,
    ]);
    expect(blockKindLabels(DIALECT_REGISTRY).get('segment')).toBe('Segment');
  });

  it('two dialects may declare one kind alike, never differently', () => {
    const alike = createDialectRegistry(
      [...DIALECTS, extra('one', { note: { inline: 'parse' } }), extra('two', { note: { inline: 'parse' } })],
      'json',
    );
    expect(inlineTreatments(alike).get('note')).toBe('parse');
    const differing = createDialectRegistry(
      [...DIALECTS, extra('one', { note: { inline: 'parse' } }), extra('two', { note: { inline: 'segment' } })],
      'json',
    );
    expect(() => inlineTreatments(differing)).toThrow(
      'block kind note is declared differently by dialects one and two',
    );
  });
});
