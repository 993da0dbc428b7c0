import { describe, expect, it } from 'vitest';
import { TextChunks } from '../provider/text-chunks';
import { AssistantParts } from './assistant-parts';

describe("the assistant message's text parts", () => {
  it('keep every delta in order across runs joined as they fill and when the part ends', () => {
    const chunks = new TextChunks();
    const deltas = Array.from({ length: 100 }, (_, i) => `${i}${i % 7 === 0 ? ' 数据 😀' : ''},`);
    for (const delta of deltas.slice(0, 70)) chunks.push(delta);
    chunks.seal();
    chunks.seal();
    for (const delta of deltas.slice(70)) chunks.push(delta);
    expect(chunks.text()).toBe(deltas.join(''));
    expect(new TextChunks().text()).toBe('');
  });

  it('give the message its parts in both wires, text whole', () => {
    for (const wire of ['ui', 'data'] as const) {
      const parts = new AssistantParts(wire);
      const text = parts.startText('text');
      for (let i = 0; i < 40; i++) text.push(`w${i} `);
      const message = parts.message('m1', undefined);
      const whole = Array.from({ length: 40 }, (_, i) => `w${i} `).join('');
      expect(JSON.stringify(message)).toContain(JSON.stringify(whole));
    }
  });
});
