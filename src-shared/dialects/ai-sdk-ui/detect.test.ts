import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import { externalFixturePath, listProviderFixtures, providerFixturePath } from '../../../src-main/testing/fixtures';
import { createCollectingSession } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';
import type { ExchangeHints } from '../evidence';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';

const claimants = (data: string): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event: '', data }))).map((m) => m.id);

/** The data of every event of an SSE file whose events are one `data:` line each, but `[DONE]`. */
const eventData = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n\n')
    .filter((event) => event.includes('data: '))
    .map((event) => event.slice(event.indexOf('data: ') + 'data: '.length))
    .filter((data) => data !== '[DONE]');

/** The lines of a v4 data stream file. */
const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

function decodeLeg(text: string, hints: ExchangeHints): DecodeResult {
  const session = createCollectingSession();
  session.decodeLeg([{ bytes: encodeUtf8(text) }], hints);
  return session.finish();
}

describe('AI SDK detection', () => {
  test.each(listProviderFixtures().filter((name) => name.endsWith('.sse')))(
    '%s: the AI SDK claims its own chunks and no other dialect’s events',
    (name) => {
      for (const data of eventData(providerFixturePath(name))) {
        const claimed = claimants(data);
        if (name.startsWith('ai-sdk-ui/')) expect(claimed, data.slice(0, 80)).toEqual(['ai-sdk-ui']);
        else expect(claimed, data.slice(0, 80)).not.toContain('ai-sdk-ui');
      }
    },
  );

  test.each(listProviderFixtures().filter((name) => name.startsWith('ai-sdk-ui/') && name.endsWith('.txt')))(
    '%s: every v4 line is the AI SDK’s alone',
    (name) => {
      for (const line of lines(providerFixturePath(name))) expect(claimants(line), line).toEqual(['ai-sdk-ui']);
    },
  );

  it('claims the streams recorded by the SDK’s own tests', () => {
    for (const name of ['ui-message-stream-error.sse', 'ui-message-stream-tool.sse'])
      for (const data of eventData(externalFixturePath(`vercel-ai/${name}`)))
        expect(claimants(data), data).toEqual(['ai-sdk-ui']);
    for (const line of lines(externalFixturePath('vercel-ai/data-stream-text.txt')))
      expect(claimants(line), line).toEqual(['ai-sdk-ui']);
  });

  test.each([
    ['an Anthropic error event', '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
    ['an agent envelope with a chunk type', '{"type":"text-delta","agent":"a","final":false,"delta":"x"}'],
    ['a Responses event', '{"type":"error","sequence_number":3,"code":"x","message":"m"}'],
    ['a type the stream does not have', '{"type":"text_delta","delta":"x"}'],
    ['a v4 code the stream does not have', 'z:"x"'],
    ['a code without JSON', '0:hello'],
  ])('does not claim %s', (_name, data) => {
    expect(claimants(data)).not.toContain('ai-sdk-ui');
  });
});

describe('the response headers name either wire', () => {
  const undecidable = ['{"kind":"tick"}', 'plain text'].map((d) => `data: ${d}\n\n`).join('');

  test.each([
    ['x-vercel-ai-ui-message-stream', 'v1'],
    ['X-Vercel-AI-Data-Stream', 'V1'],
  ])('%s: %s names the AI SDK where the bytes say nothing', (name, value) => {
    const result = decodeLeg(undecidable, { headers: [[name, value]] });
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.detections).toEqual([{ by: 'header', detail: `${name.toLowerCase()}: ${value.toLowerCase()}` }]);
  });

  it('another version of the header is no evidence', () => {
    expect(decodeLeg(undecidable, { headers: [['x-vercel-ai-ui-message-stream', 'v2']] }).detections).toEqual([
      { by: 'fallback', data: 'mixed' },
    ]);
  });
});
