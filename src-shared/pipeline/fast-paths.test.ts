import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../text/utf8';
import { seededRandom, splitRandom } from '../sse/rechunk';
import { chunkIndependent } from '../testing/fuzz-checks';
import { int, pick, type Random } from '../testing/fuzz';
import { eventText, integerText, stringText, type Member } from '../testing/shape-variations';
import { decodeLegs } from './session-decoder';

/**
 * The dialects read their hottest events without JSON.parse (src-shared/json/shapes.ts and
 * the learnt readers of the provider dialects); JSON.parse decides correctness. Every stream
 * here decodes to the same envelopes, blocks, agents, findings and statistics with those
 * readers on (the default) as with `readShapes: false`, whole and in random chunks.
 */

const FIXTURES = fileURLToPath(new URL('../../resources/fixtures/', import.meta.url));

/**
 * Every recorded stream under resources/fixtures, all dialects: SSE, JSON arrays, and the
 * line-framed wires of the provider fixtures (the AI SDK's v4 data stream, NDJSON). The
 * in-text stage's `.txt` files are model text, not streams.
 */
function fixtureFiles(): string[] {
  const lineFramed = /^(providers|external)\/.*\.(txt|ndjson|jsonl)$/;
  return (readdirSync(FIXTURES, { recursive: true }) as string[])
    .filter((path) => path.endsWith('.sse') || path.endsWith('.json-array.json') || lineFramed.test(path))
    .sort();
}

/** Whole and in random chunks (statistics count chunks: each way is compared at the same cuts). */
function decodeBoth(bytes: Uint8Array, seed: number): void {
  for (const chunks of [[bytes], splitRandom(bytes, seed)]) {
    const legs = [chunks.map((chunk) => ({ bytes: chunk }))];
    const fast = decodeLegs(legs);
    const parsed = decodeLegs(legs, { readShapes: false });
    expect(chunkIndependent(fast)).toEqual(chunkIndependent(parsed));
    expect(fast.stats).toEqual(parsed.stats);
  }
}

const sse = (data: string): string => `data: ${data}\n\n`;

/** Upstream JSON envelopes: a meta_init, then text and thinking deltas of two agents, varied. */
function jsonEnvelopes(random: Random): string {
  const agents = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', 'a\\"b', '代理'];
  let out = sse(
    '{"type":"meta_init","agent":"11111111-1111-4111-8111-111111111111","final":true,"delta":"{\\"format\\": \\"json\\"}"}',
  );
  for (let i = 0; i < 60; i++) {
    const type = ['text', 'thinking', 'tool_call', 'no_such_type', 'te\\u0078t'][int(random, random() < 0.8 ? 2 : 5)];
    out += sse(
      eventText(random, [
        ['type', `"${type as string}"`],
        ['agent', `"${agents[int(random, agents.length)] as string}"`],
        ['final', random() < 0.9 ? String(random() < 0.1) : 'null'],
        ['delta', `"${stringText(random)}"`],
      ]),
    );
  }
  return out;
}

/** Anthropic Messages: a text block and a thinking block of varied deltas. */
function anthropicMessages(random: Random): string {
  let out = sse('{"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":1}}}');
  for (const [index, kind, field] of [
    [0, 'thinking_delta', 'thinking'],
    [1, 'text_delta', 'text'],
  ] as const) {
    out += sse(`{"type":"content_block_start","index":${index},"content_block":{"type":"${field}","${field}":""}}`);
    for (let i = 0; i < 30; i++) {
      const delta = eventText(random, [
        ['type', `"${kind}"`],
        [field, `"${stringText(random)}"`],
      ]);
      out += sse(
        eventText(random, [
          ['type', '"content_block_delta"'],
          ['index', integerText(random, index)],
          ['delta', delta],
        ]),
      );
    }
    out += sse(`{"type":"content_block_stop","index":${index}}`);
  }
  return out + sse('{"type":"message_stop"}');
}

/** AG-UI: a run with a text message, a reasoning message and tool calls, every event varied. */
function agUi(random: Random): string {
  let out = sse('{"type":"RUN_STARTED","threadId":"t","runId":"r"}');
  for (const [kind, id] of [
    ['TEXT_MESSAGE', 'm\\"1'],
    ['REASONING_MESSAGE', 'm2'],
  ] as const) {
    out += sse(
      eventText(random, [
        ['type', `"${kind}_START"`],
        ['messageId', `"${id}"`],
        ['role', `"${random() < 0.9 ? 'assistant' : stringText(random, 1)}"`],
      ]),
    );
    for (let i = 0; i < 30; i++)
      out += sse(
        eventText(random, [
          ['type', `"${kind}_CONTENT"`],
          ['messageId', `"${random() < 0.9 ? id : stringText(random, 1)}"`],
          ['delta', `"${stringText(random)}"`],
        ]),
      );
    out += sse(
      eventText(random, [
        ['type', `"${kind}_END"`],
        ['messageId', `"${id}"`],
      ]),
    );
  }
  for (const call of ['c1', 'c\\"2']) {
    const start: Member[] = [
      ['type', '"TOOL_CALL_START"'],
      ['toolCallId', `"${call}"`],
      ['toolCallName', `"${random() < 0.9 ? 'f' : stringText(random, 1)}"`],
    ];
    out += sse(eventText(random, random() < 0.5 ? [...start, ['parentMessageId', '"m2"']] : start));
    for (let i = 0; i < 3; i++)
      out += sse(
        eventText(random, [
          ['type', '"TOOL_CALL_ARGS"'],
          ['toolCallId', `"${call}"`],
          ['delta', `"${pick(random, ['{\\"q\\": ', '1', '}', stringText(random)])}"`],
        ]),
      );
    out += sse(
      eventText(random, [
        ['type', '"TOOL_CALL_END"'],
        ['toolCallId', `"${call}"`],
      ]),
    );
  }
  return out + sse('{"type":"RUN_FINISHED","threadId":"t","runId":"r"}');
}

/** The AI SDK UI message stream: text and reasoning parts and tool calls, their starts, deltas and ends varied. */
function aiSdkUiStream(random: Random): string {
  let out = sse('{"type":"start","messageId":"msg"}') + sse('{"type":"start-step"}');
  for (const [kind, id] of [
    ['text', 't\\"1'],
    ['reasoning', 'r1'],
    ['text', 't2'],
  ] as const) {
    out += sse(
      eventText(random, [
        ['type', `"${kind}-start"`],
        ['id', `"${id}"`],
      ]),
    );
    for (let i = 0; i < 20; i++)
      out += sse(
        eventText(random, [
          ['type', `"${kind}-delta"`],
          ['id', `"${random() < 0.9 ? id : stringText(random, 1)}"`],
          ['delta', `"${stringText(random)}"`],
        ]),
      );
    out += sse(
      eventText(random, [
        ['type', `"${kind}-end"`],
        ['id', `"${id}"`],
      ]),
    );
  }
  for (const call of ['call_1', 'c\\"2']) {
    out += sse(
      eventText(random, [
        ['type', '"tool-input-start"'],
        ['toolCallId', `"${call}"`],
        ['toolName', `"${random() < 0.9 ? 'f' : stringText(random, 1)}"`],
      ]),
    );
    for (const piece of ['{\\"q\\": ', '1', '}'])
      out += sse(
        eventText(random, [
          ['type', '"tool-input-delta"'],
          ['toolCallId', `"${call}"`],
          ['inputTextDelta', `"${random() < 0.8 ? piece : stringText(random)}"`],
        ]),
      );
    out += sse(`{"type":"tool-input-available","toolCallId":"${call}","toolName":"f","input":{"q":1}}`);
  }
  return out + sse('{"type":"finish-step"}') + sse('{"type":"finish"}') + sse('[DONE]');
}

/** The AI SDK v4 data stream: text and reasoning lines and tool call lines, varied. */
function aiSdkDataStream(random: Random): string {
  let out = 'f:{"messageId":"msg"}\n';
  for (const code of ['g', '0']) for (let i = 0; i < 20; i++) out += `${code}:"${stringText(random)}"\n`;
  for (const call of ['call_1', 'c\\"2']) {
    out += `b:${eventText(random, [
      ['toolCallId', `"${call}"`],
      ['toolName', `"${random() < 0.9 ? 'f' : stringText(random, 1)}"`],
    ])}\n`;
    for (const piece of ['{\\"q\\": ', '1', '}'])
      out += `c:${eventText(random, [
        ['toolCallId', `"${call}"`],
        ['argsTextDelta', `"${random() < 0.8 ? piece : stringText(random)}"`],
      ])}\n`;
    out += `9:{"toolCallId":"${call}","toolName":"f","args":{"q":1}}\n`;
  }
  return out + '0:"done"\ne:{"finishReason":"stop"}\nd:{"finishReason":"stop"}\n';
}

/** Ollama's native API: text and thinking lines of /api/chat and /api/generate, their members varied. */
function ollamaLines(random: Random): string {
  const models = ['llama3.2', 'qwen3:8b', 'm\\"1'];
  let out = '';
  for (const endpoint of ['chat', 'generate'] as const) {
    for (let i = 0; i < 30; i++) {
      const thinking = random() < 0.3;
      const text = `"${stringText(random)}"`;
      const members: Member[] = [
        ['model', `"${random() < 0.9 ? 'llama3.2' : pick(random, models)}"`],
        ['created_at', `"${random() < 0.9 ? '2025-01-01T12:00:00.123456Z' : stringText(random, 1)}"`],
      ];
      if (endpoint === 'chat') {
        const message: Member[] = [
          ['role', '"assistant"'],
          ['content', thinking ? '""' : text],
        ];
        members.push(['message', eventText(random, thinking ? [...message, ['thinking', text]] : message)]);
      } else {
        members.push(['response', thinking ? '""' : text]);
        if (thinking) members.push(['thinking', text]);
      }
      out += `${eventText(random, [...members, ['done', 'false']])}\n`;
    }
    out += '{"model":"llama3.2","created_at":"x","message":{"role":"assistant","content":""},"done":true}\n';
  }
  return out;
}

describe('hot events read without JSON.parse decode as JSON.parse reads them', () => {
  it.each(fixtureFiles())('fixture %s', (path) => {
    decodeBoth(new Uint8Array(readFileSync(FIXTURES + path)), path.length);
  });

  it.each([
    ['json envelopes', jsonEnvelopes],
    ['Anthropic Messages', anthropicMessages],
    ['AG-UI', agUi],
    ['AI SDK UI message stream', aiSdkUiStream],
    ['AI SDK v4 data stream', aiSdkDataStream],
    ['Ollama lines', ollamaLines],
  ])(
    'seeded random %s: reordered keys, extra keys, whitespace, odd numbers, escapes, surrogates',
    (_name, generate) => {
      for (let seed = 1; seed <= 25; seed++) {
        const bytes = encodeUtf8(generate(seededRandom(seed)));
        decodeBoth(bytes, seed);
      }
    },
  );
});
