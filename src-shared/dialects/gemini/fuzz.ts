import { jsonText } from '../../json/tree';
import { jsonValue, pick, type FuzzDialect, type Random } from '../../testing/fuzz';

/**
 * The fuzz grammar of Gemini chunks: GenerateContentResponses of every part kind (text and
 * thoughts, whole and streamed function calls with JSON paths good and bad, code, its result,
 * images and other media, unknown parts), every finish reason, blocked prompts, error bodies
 * and values of the wrong type (nested thousands deep where the API has objects), with a few
 * response ids so that responses follow each other, repeat and interleave. Half the streams
 * are the JSON array the API sends without `alt=sse`.
 */

const TEXT = ['The capital', ' is Paris', '日本語', '😀', 'a"b', 'line\nbreak', '', '\u0000', ']]>'];
const REASONS = ['STOP', 'STOP', 'STOP', 'MAX_TOKENS', 'SAFETY', 'MALFORMED_FUNCTION_CALL', 'OTHER', 'NEW_REASON', ''];
const PATHS = ['$.a', '$.a.b', '$.list[0]', '$.list[1]', '$.list[9]', "$['x']", '$', 'a.b', '$.a[0]', '$..a'];

function partialArg(random: Random): Record<string, unknown> {
  const arg: Record<string, unknown> = { jsonPath: pick(random, PATHS) };
  const value = Math.floor(random() * 5);
  if (value === 0) arg['numberValue'] = random() * 100;
  else if (value === 1) arg['boolValue'] = random() < 0.5;
  else if (value === 2) arg['nullValue'] = 'NULL_VALUE';
  else if (value === 3) arg['stringValue'] = pick(random, TEXT);
  if (random() < 0.4) arg['willContinue'] = true;
  return arg;
}

function part(random: Random): unknown {
  switch (Math.floor(random() * 10)) {
    case 0:
    case 1:
    case 2:
      return { text: pick(random, TEXT) };
    case 3:
      return { text: pick(random, TEXT), thought: true, ...(random() < 0.3 ? { thoughtSignature: 'c2ln' } : {}) };
    case 4:
      return {
        functionCall: { name: pick(random, ['f', 'g']), args: random() < 0.9 ? { q: pick(random, TEXT) } : 'x' },
      };
    case 5:
      return {
        functionCall: {
          ...(random() < 0.3 ? { name: 'f' } : {}),
          ...(random() < 0.7 ? { partialArgs: [partialArg(random), partialArg(random)] } : {}),
          ...(random() < 0.6 ? { willContinue: true } : {}),
        },
      };
    case 6:
      return pick(random, [
        { executableCode: { language: 'PYTHON', code: 'print(1)' } },
        { codeExecutionResult: { outcome: pick(random, ['OUTCOME_OK', 'OUTCOME_FAILED']), output: '1\n' } },
      ]);
    case 7:
      return {
        inlineData: { mimeType: pick(random, ['image/png', 'audio/wav', '']), data: pick(random, ['AA==', '']) },
      };
    case 8:
      return pick(random, [{ futurePart: { x: 1 } }, {}, 'text', null, { fileData: { fileUri: 'gs://b/o' } }]);
    default:
      return { text: pick(random, TEXT) };
  }
}

function candidate(random: Random): Record<string, unknown> {
  const parts = Array.from({ length: Math.floor(random() * 3) }, () => part(random));
  const reason = random() < 0.15 ? pick(random, REASONS) : '';
  return {
    content: { role: 'model', parts },
    index: random() < 0.9 ? 0 : 1,
    ...(reason !== '' ? { finishReason: reason } : {}),
    ...(reason !== '' && random() < 0.3
      ? {
          groundingMetadata: {
            groundingChunks: [{ web: { uri: 'https://a.example', title: 'a' } }],
            groundingSupports: [{ segment: { text: 'x', startIndex: 0, endIndex: 1 }, groundingChunkIndices: [0, 7] }],
          },
        }
      : {}),
  };
}

function chunk(random: Random): string {
  const roll = random();
  const common = {
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: Math.floor(random() * 50) },
    modelVersion: 'gemini-fuzz',
    responseId: pick(random, ['r1', 'r1', 'r1', 'r2', '']),
  };
  if (roll < 0.04) return jsonText({ promptFeedback: { blockReason: 'SAFETY' }, ...common });
  if (roll < 0.08) return jsonText({ error: { code: 503, message: pick(random, TEXT), status: 'UNAVAILABLE' } });
  if (roll < 0.1) return jsonText({ candidates: pick(random, [null, 'x', [1], [{}]]), ...common });
  if (roll < 0.12) return jsonText({ candidates: [{ content: jsonValue(random), index: 0 }], ...common });
  return jsonText({ candidates: [candidate(random)], ...common });
}

export const fuzzGrammar: FuzzDialect = {
  event: chunk,
  framing: { eventField: false, sequenceNumbers: false, jsonArray: true },
};
