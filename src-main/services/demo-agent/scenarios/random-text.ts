import type { ScriptedAgent } from '../scripted-agent';

/**
 * Seeded text as agents stream it, for the generated streams (the firehose scenario and the
 * benchmarks' streams): sentences mixing Latin words, CJK and emoji, cut into 5–50-byte
 * deltas that never split a code point, and tool payloads of rows of such text.
 */

const WORDS = [
  'the',
  'agent',
  'streams',
  'a',
  'delta',
  'of',
  'text',
  'while',
  'tools',
  'run',
  'and',
  'results',
  'arrive',
  'in',
  'order',
];
const CJK = ['流式', '代理', '工具', '结果', '思考', '文本', 'エージェント', 'ストリーム', '도구', '결과'];
const EMOJI = ['🚀', '✅', '🔍', '📄', '🧠', '⚙️', '👍🏽', '🇫🇷'];

export type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** An integer in [min, max], log-uniform: many small values, a few large ones. */
export const logUniform = (random: Random, min: number, max: number): number =>
  Math.round(Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min))));

function sentence(random: Random): string {
  const words: string[] = [];
  for (let i = 3 + Math.floor(random() * 12); i > 0; i--) {
    const r = random();
    words.push(r < 0.75 ? pick(random, WORDS) : r < 0.93 ? pick(random, CJK) : pick(random, EMOJI));
  }
  return `${words.join(' ')}. `;
}

/** Text of about `bytes` UTF-8 bytes, cut into 5–50-byte deltas (never inside a code point). */
export function deltasOf(random: Random, bytes: number): string[] {
  const text: string[] = [];
  for (let size = 0; size < bytes;) {
    const s = sentence(random);
    text.push(s);
    size += Buffer.byteLength(s);
  }
  const out: string[] = [];
  let current = '';
  let currentBytes = 0;
  let target = 5 + Math.floor(random() * 46);
  for (const char of Array.from(text.join(''))) {
    current += char;
    currentBytes += Buffer.byteLength(char);
    if (currentBytes >= target) {
      out.push(current);
      current = '';
      currentBytes = 0;
      target = 5 + Math.floor(random() * 46);
    }
  }
  if (current) out.push(current);
  return out;
}

/** A tool payload of about `bytes` bytes: rows of mixed-script text, as a search or file read returns. */
export function toolPayload(random: Random, bytes: number): string {
  const rows: string[] = [];
  for (let size = 0; size < bytes;) {
    const row = sentence(random);
    rows.push(row);
    size += Buffer.byteLength(row) + 1;
  }
  return rows.join('\n');
}

/** Sizes, in bytes, of one generated turn's parts: [min, max] each, log-uniform. */
export interface TurnSizes {
  thinking: readonly [number, number];
  text: readonly [number, number];
  payload: readonly [number, number];
}

/** One API turn of `agent`: thinking, text, a `read_file` call, and the tool's result. */
export function toolTurn(agent: ScriptedAgent, random: Random, toolId: string, file: string, sizes: TurnSizes): void {
  agent
    .turn()
    .thinking(deltasOf(random, logUniform(random, ...sizes.thinking)))
    .text(deltasOf(random, logUniform(random, ...sizes.text)))
    .toolUse(toolId, 'read_file', { path: file, content: toolPayload(random, logUniform(random, ...sizes.payload)) })
    .end('tool_use');
  agent.toolResult(toolId, 'read_file', toolPayload(random, logUniform(random, ...sizes.payload)));
}
