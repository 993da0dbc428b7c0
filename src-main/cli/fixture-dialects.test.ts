import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { decodeFile } from './decode-file';
import { memoryIo } from './test-io';

/**
 * Every stream the project ships (resources/fixtures/**, resources/samples/**) decoded as a
 * user would open it: the streams of a known dialect keep it, and only the streams of
 * protocols no dialect knows (resources/fixtures/unknown) are left to the generic fallback.
 */
const ROOT = join(import.meta.dirname, '../../resources');

/** Every stream file under resources, as a path from there. */
function streamFiles(): string[] {
  return readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .filter((name) => name.endsWith('.sse') || name.endsWith('.recording'))
    .sort();
}

/** What each stream decoded as before the fallback became generic events: none may change. */
const KNOWN: Record<string, readonly string[]> = {
  'fixtures/external/vercel-ai/anthropic-text.data-only.sse': ['anthropic-messages'],
  'fixtures/external/vercel-ai/openai-two-responses.data-only.sse': ['openai-responses'],
  'fixtures/inline/json-tool-calls.json.sse': ['json'],
  'fixtures/inline/segment-events-malformed.sse': ['segments'],
  'fixtures/inline/segment-events.sse': ['segments'],
  'samples/frontend-tool.recording': ['json', 'json'],
  'samples/multi-agent.recording': ['json'],
  'samples/tour.json.recording': ['json'],
  'samples/tour.xml.recording': ['xml'],
  'samples/truncated.recording': ['json'],
};

/**
 * The dialect a file's place or name says: the provider folders name theirs, the recorded
 * Anthropic streams are the Messages API and the recorded OpenAI Responses streams that API,
 * upstream files end `.<format>.sse`.
 */
function expectedFormats(path: string): readonly string[] | undefined {
  const known = KNOWN[path];
  if (known) return known;
  if (path.startsWith('fixtures/external/anthropic/')) return ['anthropic-messages'];
  if (path.startsWith('fixtures/external/openai-responses/')) return ['openai-responses'];
  const provider = /^fixtures\/providers\/([^/]+)\//.exec(path)?.[1];
  if (provider) return [provider];
  const upstream = /^fixtures\/upstream\/.*\.(json|xml|raw)\.sse$/.exec(path)?.[1];
  return upstream ? [upstream] : undefined;
}

const decodeAs = async (path: string) => {
  const decoded = await decodeFile(join(ROOT, path), 'auto', memoryIo());
  return { formats: decoded.formats, rules: decoded.diagnostics.map((d) => d.rule) };
};

describe('the dialect of every stream the project ships', () => {
  const files = streamFiles();

  it('finds the fixtures and samples', () => {
    expect(files.length).toBeGreaterThan(60);
    for (const path of Object.keys(KNOWN)) expect(files, `${path} still exists`).toContain(path);
  });

  test.each(files.filter((path) => !path.startsWith('fixtures/unknown/')))(
    '%s: its own dialect, never the fallback',
    async (path) => {
      const { formats, rules } = await decodeAs(path);
      const expected = expectedFormats(path);
      if (expected) expect(formats).toEqual(expected);
      expect(formats).not.toContain('json-events');
      expect(rules).not.toContain('stream.format-undetected');
    },
  );

  it("the streams of unknown protocols are the fallback's", async () => {
    const unknown = files.filter((path) => path.startsWith('fixtures/unknown/'));
    expect(unknown.length).toBeGreaterThan(4);
    for (const path of unknown) expect((await decodeAs(path)).formats, path).toEqual(['json-events']);
  });
});
