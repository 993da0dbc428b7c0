import { describe, expect, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded } from '../../../src-main/testing/provider-streams';

/** Streams recorded by other projects (resources/fixtures/external/ollama, credited in its README). */
const RECORDED: readonly { name: string; blocks: [string, string][]; summary: Record<string, unknown> }[] = [
  {
    name: 'ollama/ollama-bash-lib-generate.ndjson',
    blocks: [
      [
        'text',
        'A rabbit is a small mammal with long ears and a fluffy white tail. They are known for their fast movement and agility in the wild. Rabbits have a high reproductive rate and are often seen in gardens or wild areas.',
      ],
    ],
    summary: {
      model: 'dolphin3:8b',
      status: 'completed',
      stop_reason: 'stop',
      usage: { input_tokens: 31, output_tokens: 47 },
    },
  },
  {
    name: 'ollama/siumai-simple-content-then-done.jsonl',
    blocks: [['text', 'Hello world!']],
    // No done_reason on its done line (older servers): the response ended, for no reason given.
    summary: { model: 'llama3.2', status: 'completed', usage: { input_tokens: 26, output_tokens: 298 } },
  },
  {
    name: 'ollama/siumai-thinking-and-content.jsonl',
    blocks: [
      ['thinking', 'Let me think about this... The answer is 42.'],
      ['text', 'The answer is 42.'],
    ],
    summary: { model: 'deepseek-r1:1.5b', status: 'completed', usage: { input_tokens: 10, output_tokens: 15 } },
  },
];

describe('recorded Ollama streams', () => {
  test.each(RECORDED)(
    '$name: ollama, done, no finding, its blocks and summary, the same at every chunking',
    (recorded) => {
      const bytes = readExternalFixture(recorded.name);
      const { result, facts } = decodeRecorded(bytes);
      expect(facts).toEqual({
        formats: ['ollama'],
        rules: [],
        status: 'done',
        chunkingsThatDiffer: [],
      });
      expect(result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content])).toEqual(
        recorded.blocks,
      );
      expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject(recorded.summary);
    },
  );
});
