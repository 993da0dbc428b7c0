import { encodeUtf8 } from '../text/utf8';

/** Seeded streams of well-formed JSON envelopes, for tests that need most events healthy (the read-ahead
 * equivalence tests take their envelopes; the fuzz streams are mostly broken on purpose). */
const AGENTS = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', 'sub 3'];
const DELTAS = ['Let me ', 'look', ' at \\"this\\"', '\\n', 'naïve ', '日本語', '😀', 'a\\u00e9b', '\\ud83d\\ude00'];

/** Seeded well-formed JSON envelopes: text and thinking deltas of three agents, tool calls with extras. */
export function healthyEnvelopes(random: () => number, size: number): Uint8Array {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let text = '';
  while (text.length < size) {
    const agent = pick(AGENTS);
    const type = pick(['text', 'thinking', 'text', 'tool_call']);
    const final = random() < 0.1;
    const extras = type === 'tool_call' ? `,"id":"toolu_${Math.floor(random() * 9)}","name":"grep"` : '';
    const delta = type === 'tool_call' ? '{\\"q\\":1}' : pick(DELTAS) + pick(DELTAS);
    text += `data: {"type":"${type}","agent":"${agent}","final":${final},"delta":"${delta}"${extras}}\n\n`;
  }
  return encodeUtf8(text);
}
