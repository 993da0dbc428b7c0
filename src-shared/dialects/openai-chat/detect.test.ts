import { describe, expect, test } from 'vitest';
import { listProviderFixtures, providerFixturePath } from '../../../src-main/testing/fixtures';
import { frameChunks } from '../../sse/collect';
import { createCollectingSession } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { matchEvidence } from '../evidence';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';
import { readFileSync } from 'node:fs';

/** The dialects that claim a frame: detection must never be ambiguous. */
const claimants = (data: string, event = ''): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event, data }))).map((m) => m.id);

describe('Chat Completions detection: positive evidence only', () => {
  test.each([
    ['a chunk with its object', '{"id":"c","object":"chat.completion.chunk","choices":[]}'],
    ['a usage chunk', '{"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1}}'],
    ['a chunk without object whose choice has a delta', '{"choices":[{"delta":{"content":"ok"}}]}'],
    ['a chunk whose object is empty', '{"id":"","object":"","choices":[{"index":0,"delta":{}}]}'],
    ["Azure's placeholder with its prompt filter results", '{"choices":[],"id":"","prompt_filter_results":[]}'],
    ["OpenAI's error object alone", '{"error":{"message":"Rate limit","type":"requests","code":null}}'],
    ["OpenRouter's error object alone", '{"error":{"code":502,"message":"Provider disconnected"}}'],
    [
      "DashScope's error beside the chunk's id (recorded: qwen3 in thinking mode, after HTTP 200)",
      '{"error":{"code":"invalid_parameter_error","param":null,"message":"<400> InternalError.Algo.InvalidParameter","type":"invalid_request_error"},"id":"chatcmpl-8G-kKVjXKxxuPpqw"}',
    ],
    [
      "OpenRouter's error chunk with empty choices",
      '{"id":"gen-x","choices":[],"error":{"code":429,"message":"Provider returned error","metadata":{}}}',
    ],
  ])('claims %s, and no other dialect does', (_name, data) => {
    expect(claimants(data)).toEqual(['openai-chat']);
  });

  test('claims an event: error frame whose data has no type, and no other dialect does', () => {
    expect(claimants('{"error":{"message":"Overloaded"}}', 'error')).toEqual(['openai-chat']);
  });

  test.each([
    ['a placeholder without choices or filter results', '{"choices":[],"created":0,"id":"","model":"","object":""}'],
    ['a legacy completion chunk (text, no delta)', '{"object":"text_completion","choices":[{"text":"a","index":0}]}'],
    ['an object with a type', '{"type":"text","choices":[{"delta":{}}]}'],
    ['a JSON-RPC error', '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'],
    ['a Gemini error body', '{"error":{"code":400,"message":"Bad","status":"INVALID_ARGUMENT"}}'],
    ['an error beside other members', '{"error":{"message":"x"},"detail":"y"}'],
    ['an error that is a string', '{"error":"boom"}'],
    ['empty choices beside an error that is no object', '{"choices":[],"error":"boom"}'],
    ['the router error frame', '{"error":"APIStatusError","message":"m","traceback":"t"}'],
    ['a Responses error event', '{"type":"error","code":"x","message":"m","sequence_number":1}'],
    ['text', 'choices'],
  ])('leaves %s alone', (_name, data) => {
    expect(claimants(data)).not.toContain('openai-chat');
  });

  test.each(listProviderFixtures().filter((f) => !f.startsWith('openai-chat/')))(
    '%s: no event of another provider is claimed',
    (name) => {
      const { frames } = frameChunks([new Uint8Array(readFileSync(providerFixturePath(name)))]);
      for (const frame of frames)
        expect(DIALECT_REGISTRY.get('openai-chat')?.detect(sniffFrame(frame)), frame.data.slice(0, 60)).toBe(false);
    },
  );
});

describe('Chat Completions evidence beyond the bytes: the endpoint', () => {
  test.each([
    'https://api.openai.com/v1/chat/completions',
    'https://my.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    'https://openrouter.ai/api/v1/chat/completions',
    'http://127.0.0.1:11434/v1/chat/completions/',
  ])('%s names the dialect', (url) => {
    expect(matchEvidence(DIALECT_REGISTRY.modules, { url })?.module.id).toBe('openai-chat');
  });

  test('a leg whose only chunk is a bare placeholder is Chat Completions at that URL, and the fallback elsewhere', () => {
    const bytes = encodeUtf8('data: {"choices":[],"created":0,"id":"","model":"","object":""}\n\ndata: [DONE]\n\n');
    const decode = (url: string) => {
      const session = createCollectingSession();
      session.decodeLeg([{ bytes }], { url });
      return session.finish();
    };
    const atEndpoint = decode('https://api.openai.com/v1/chat/completions');
    expect(atEndpoint.formats).toEqual(['openai-chat']);
    expect(atEndpoint.diagnostics.map((d) => d.message)).toEqual([
      "The only event matches no dialect's own markers; the URL's path /chat/completions names OpenAI Chat Completions, so they are decoded as that.",
    ]);
    expect(decode('https://example.com/events').formats).toEqual(['json-events']);
  });
});
