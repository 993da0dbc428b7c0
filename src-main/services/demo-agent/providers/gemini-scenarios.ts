import { isJsonObject } from '../../../../src-shared/json/values';
import { CHART_PNG_BASE64 } from '../sample-image';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted Gemini `streamGenerateContent` streams (docs/protocols/gemini.md): every chunk a
 * whole GenerateContentResponse with its running usage, the chunk with `finishReason` last.
 * Text, thoughts, parallel function calls, code execution with a plot, Google Search
 * grounding, a SAFETY finish, a blocked prompt, Vertex AI's streamed function call
 * arguments, an error body mid-stream and a cut stream.
 */

const MODEL = 'gemini-2.5-flash';

type Part = Record<string, unknown>;

/** One scenario's chunks, each carrying the running usage, the model and the response id, as the API sends them. */
class ResponseScript {
  readonly events: ProviderEvent[] = [];
  private output = 0;
  private thoughts = 0;

  constructor(
    private readonly id: string,
    private readonly promptTokens: number,
  ) {}

  private usage(): Record<string, unknown> {
    return {
      promptTokenCount: this.promptTokens,
      ...(this.output > 0 ? { candidatesTokenCount: this.output } : {}),
      totalTokenCount: this.promptTokens + this.output + this.thoughts,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: this.promptTokens }],
      ...(this.thoughts > 0 ? { thoughtsTokenCount: this.thoughts } : {}),
    };
  }

  /** A chunk of parts; `tokens` of output (or of thoughts, for thought parts) are counted. */
  chunk(parts: Part[], tokens: number, candidate: Record<string, unknown> = {}): this {
    if (parts.some((p) => p['thought'] === true)) this.thoughts += tokens;
    else this.output += tokens;
    this.events.push({
      event: '',
      data: {
        candidates: [{ content: { parts, role: 'model' }, ...candidate, index: 0 }],
        usageMetadata: this.usage(),
        modelVersion: MODEL,
        responseId: this.id,
      },
    });
    return this;
  }

  /** The finishing chunk: an empty text part (as the API sends it) unless parts are given. */
  finish(reason: string, extra: Record<string, unknown> = {}, parts: Part[] = [{ text: '' }]): this {
    return this.chunk(parts, 0, { finishReason: reason, ...extra });
  }

  raw(data: Record<string, unknown>): this {
    this.events.push({ event: '', data });
    return this;
  }
}

const text = (value: string): Part => ({ text: value });
const thought = (value: string): Part => ({ text: value, thought: true });
const SIGNATURE = 'CiQBcsjafDemoThoughtSignatureAAAA==';

const SAFETY_RATINGS = [
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
];

const GROUNDING = {
  webSearchQueries: ['capital of France', 'Paris population 2025'],
  searchEntryPoint: { renderedContent: '<div class="container">capital of France</div>' },
  groundingChunks: [
    { web: { uri: 'https://atlas.example/france', title: 'atlas.example' } },
    { web: { uri: 'https://stats.example/paris', title: 'stats.example' } },
  ],
  groundingSupports: [
    {
      segment: { startIndex: 0, endIndex: 31, text: 'The capital of France is Paris.' },
      groundingChunkIndices: [0],
      confidenceScores: [0.97],
    },
    {
      segment: { startIndex: 32, endIndex: 75, text: 'About 2.1 million people live in the city.' },
      groundingChunkIndices: [1, 0],
      confidenceScores: [0.91, 0.62],
    },
  ],
};

export const GEMINI_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text',
    title: 'Text',
    summary: 'An answer streamed over four chunks, the running usage on each; the last one says STOP.',
    events: new ResponseScript('resp-demo-text', 9)
      .chunk([text('The capital of France')], 4)
      .chunk([text(' is Paris. It lies on the')], 7)
      .chunk([text(' Seine, in the north of the country.')], 9)
      .finish('STOP').events,
  },
  {
    id: 'thinking',
    title: 'Thinking',
    summary: 'Thought summaries (thought: true) before the answer, with its thought signature.',
    events: new ResponseScript('resp-demo-thinking', 12)
      .chunk([thought('**Recalling the geography**\n\nThe user asks for the capital of France. ')], 18)
      .chunk([thought('It is Paris; no tool is needed.')], 9)
      .chunk([{ ...text('Paris is the capital of France.'), thoughtSignature: SIGNATURE }], 7)
      .finish('STOP').events,
  },
  {
    id: 'parallel-calls',
    title: 'Parallel function calls',
    summary: 'Two function calls in one chunk, the first with its thought signature.',
    events: new ResponseScript('resp-demo-calls', 41)
      .chunk(
        [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
            thoughtSignature: SIGNATURE,
          },
          { functionCall: { name: 'get_local_time', args: { city: 'Paris' } } },
        ],
        22,
      )
      .finish('STOP').events,
  },
  {
    id: 'calls-answered',
    title: 'Function calls, answered',
    summary:
      'What a conversation ending with the functionResponse parts answering the calls gets: the answer, from them.',
    events: new ResponseScript('resp-demo-answered', 60)
      .chunk([text('In Paris it is 21 °C ')], 6)
      .chunk([text('and 14:05.')], 5)
      .finish('STOP').events,
  },
  {
    id: 'code-execution',
    title: 'Code execution',
    summary: 'executableCode, its codeExecutionResult and the plot it drew (inlineData), then the answer.',
    events: new ResponseScript('resp-demo-code', 30)
      .chunk([text('Let me compute the first primes and plot them.')], 10)
      .chunk(
        [
          {
            executableCode: {
              language: 'PYTHON',
              code: 'primes = [n for n in range(2, 30) if all(n % d for d in range(2, n))]\nprint(sum(primes))',
            },
          },
        ],
        31,
      )
      .chunk([{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '129\n' } }], 3)
      .chunk([{ inlineData: { mimeType: 'image/png', data: CHART_PNG_BASE64 } }], 258)
      .chunk([text('The primes below 30 add up to 129.')], 11)
      .finish('STOP').events,
  },
  {
    id: 'grounding',
    title: 'Grounding with Google Search',
    summary: 'An answer grounded in search results: groundingMetadata on the finishing chunk becomes citations.',
    events: new ResponseScript('resp-demo-grounding', 11)
      .chunk([text('The capital of France is Paris.')], 8)
      .chunk([text(' About 2.1 million people live in the city.')], 10)
      .finish('STOP', { groundingMetadata: GROUNDING }).events,
  },
  {
    id: 'safety',
    title: 'SAFETY finish',
    summary: 'The answer stops with finishReason SAFETY and its safety ratings.',
    events: new ResponseScript('resp-demo-safety', 14)
      .chunk([text('Here is how the reaction starts: first')], 9)
      .finish('SAFETY', { safetyRatings: SAFETY_RATINGS }, []).events,
  },
  {
    id: 'prompt-blocked',
    title: 'Blocked prompt',
    summary: 'promptFeedback.blockReason: the prompt is blocked and no candidate comes.',
    events: new ResponseScript('resp-demo-blocked', 9).raw({
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
      modelVersion: MODEL,
      responseId: 'resp-demo-blocked',
    }).events,
  },
  {
    id: 'streamed-args',
    title: 'Streamed function call arguments (Vertex AI)',
    summary: 'A function call whose arguments stream as partialArgs with willContinue, as Vertex AI sends them.',
    events: new ResponseScript('resp-demo-partial', 37)
      .chunk([{ functionCall: { name: 'book_table', willContinue: true }, thoughtSignature: SIGNATURE }], 2)
      .chunk(
        [
          {
            functionCall: {
              partialArgs: [{ jsonPath: '$.restaurant', stringValue: 'Chez ', willContinue: true }],
              willContinue: true,
            },
          },
        ],
        3,
      )
      .chunk(
        [{ functionCall: { partialArgs: [{ jsonPath: '$.restaurant', stringValue: 'Paul' }], willContinue: true } }],
        2,
      )
      .chunk(
        [
          {
            functionCall: {
              partialArgs: [
                { jsonPath: '$.party.size', numberValue: 4 },
                { jsonPath: '$.times[0]', stringValue: '19:30' },
              ],
            },
          },
        ],
        6,
      )
      .finish('STOP').events,
  },
  {
    id: 'error-midstream',
    title: 'Error mid-stream',
    summary: 'Two chunks of text, then an error body (503 UNAVAILABLE) ends the stream.',
    events: new ResponseScript('resp-demo-error', 10)
      .chunk([text('The capital of France is')], 5)
      .chunk([text(' Paris, and its')], 4)
      .raw({ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } })
      .events,
  },
  {
    id: 'cut',
    title: 'Cut stream',
    summary: 'The connection drops after two chunks: no finishReason.',
    events: new ResponseScript('resp-demo-cut', 10)
      .chunk([text('This answer never')], 3)
      .chunk([text(' gets to its')], 3).events,
    cut: true,
  },
];

/**
 * The scenario as a request answers it: a conversation whose last content holds
 * `functionResponse` parts (the client's results for the calls a response finished with) gets
 * the answer from them, whatever scenario the body still names.
 */
export function geminiContinuation(scenario: ProviderScenario, body: unknown): ProviderScenario {
  const contents = isJsonObject(body) && Array.isArray(body['contents']) ? body['contents'] : [];
  const last: unknown = contents.at(-1);
  const parts = isJsonObject(last) && Array.isArray(last['parts']) ? (last['parts'] as unknown[]) : [];
  const answers = parts.some((part) => isJsonObject(part) && isJsonObject(part['functionResponse']));
  return answers ? (GEMINI_SCENARIOS.find((s) => s.id === 'calls-answered') ?? scenario) : scenario;
}
