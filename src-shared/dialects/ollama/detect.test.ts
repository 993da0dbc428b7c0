import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { everyStreamFixture } from '../../../src-main/testing/fixtures';
import { createCollectingSession, decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { sniffFrame } from '../sniff';
import { isOllamaChunk } from './index';

const claims = (data: string): boolean => isOllamaChunk(sniffFrame({ event: '', data }));

describe('Ollama detection', () => {
  test.each([
    [
      'a chat chunk',
      '{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}',
    ],
    ['a generate chunk', '{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","response":"Hi","done":false}'],
    [
      'a done line without its message',
      '{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","done":true,"done_reason":"stop"}',
    ],
    ['a chunk with leading whitespace', ' \t{"model":"m","created_at":"t","response":"","done":true}'],
  ])('claims %s', (_name, data) => {
    expect(claims(data)).toBe(true);
  });

  // JSON events that merely share a member or two with a chunk are the fallback's (json-events).
  test.each([
    ['an object with a model', '{"model":"llama3.2","text":"hi"}'],
    ['a model and a message', '{"model":"llama3.2","message":{"content":"hi"}}'],
    ['no created_at', '{"model":"llama3.2","message":{"content":"hi"},"done":false}'],
    ['no done', '{"model":"llama3.2","created_at":"t","message":{"content":"hi"}}'],
    ['a done that is no boolean', '{"model":"llama3.2","created_at":"t","response":"hi","done":"no"}'],
    ['a model that is no string', '{"model":7,"created_at":"t","response":"hi","done":false}'],
    ['neither message nor response', '{"model":"llama3.2","created_at":"t","done":false}'],
    ['a message that is text', '{"model":"llama3.2","created_at":"t","message":"hi","done":false}'],
    [
      'a typed event with the same members',
      '{"type":"chunk","model":"m","created_at":"t","response":"hi","done":false}',
    ],
    [
      'a chat.completion.chunk with created_at',
      '{"object":"chat.completion.chunk","model":"m","created_at":"t","choices":[],"done":false,"response":""}',
    ],
    ["a bare error line: no protocol's own", '{"error":"model \\"llama3.2\\" not found, try pulling it first"}'],
    ['a pull progress line', '{"status":"pulling manifest"}'],
    ['a truncated chunk', '{"model":"llama3.2","created_at":"t","response":"hi","do'],
  ])('does not claim %s', (_name, data) => {
    expect(claims(data)).toBe(false);
  });

  it("claims no event of any other dialect's fixture (upstream, provider, unknown and recorded streams)", () => {
    const claimed: string[] = [];
    let events = 0;
    for (const path of everyStreamFixture().filter((p) => !p.includes('/ollama/'))) {
      for (const frame of decodeBytes(new Uint8Array(readFileSync(path))).frames.flat()) {
        events++;
        if (claims(frame.data)) claimed.push(`${relative(process.cwd(), path)}: ${frame.data.slice(0, 60)}`);
      }
    }
    expect(events).toBeGreaterThan(1000);
    expect(claimed).toEqual([]);
  });

  it('NDJSON of objects with a model field and nothing of a chunk stays JSON events', () => {
    const body = [
      '{"model":"gpt-4o","event":"start"}',
      '{"model":"gpt-4o","created_at":"t","text":"hi"}',
      '{"model":"gpt-4o","done":true}',
    ];
    const result = decodeBytes(encodeUtf8(body.map((l) => `${l}\n`).join('')));
    expect(result.formats).toEqual(['json-events']);
  });

  it('an error line alone is decoded as Ollama only where the URL names /api/generate', () => {
    const body = encodeUtf8('{"error":"model \\"llama3.2\\" not found, try pulling it first"}\n');
    const decode = (url: string) => {
      const session = createCollectingSession();
      session.decodeLeg([{ bytes: body }], { url, headers: [['content-type', 'application/x-ndjson']] });
      return session.finish();
    };
    const generate = decode('http://127.0.0.1:11434/api/generate');
    expect(generate.formats).toEqual(['ollama']);
    expect(generate.detections).toEqual([{ by: 'url', detail: '/api/generate' }]);
    expect(generate.diagnostics.map((d) => d.rule)).toContain('provider.api-error');
    // /api/chat is also where the AI SDK's routes live: it names no dialect.
    expect(decode('http://127.0.0.1:11434/api/chat').formats).toEqual(['json-events']);
  });
});
