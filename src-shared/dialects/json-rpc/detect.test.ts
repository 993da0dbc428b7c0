import { readdirSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import {
  EXTERNAL_FIXTURES_DIR,
  listProviderFixtures,
  listSseFixtures,
  readExternalFixture,
  readFixture,
} from '../../../src-main/testing/fixtures';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { createCollectingSession } from '../../pipeline/session-decoder';
import { frameChunks } from '../../sse/collect';
import { encodeUtf8 } from '../../text/utf8';
import { DIALECT_REGISTRY } from '../registry';
import { blockKindLabels } from '../traits';
import { sniffFrame } from '../sniff';
import { jsonRpcDialect } from './index';

const claims = (data: string, event = ''): boolean => jsonRpcDialect.detect(sniffFrame({ event, data }));
const claimants = (frame: { event: string; data: string }): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame(frame))).map((m) => m.id);
const framesOf = (bytes: Uint8Array) => frameChunks([bytes], { maxDataLineBytes: Number.MAX_SAFE_INTEGER }).frames;

describe('json-rpc detection needs positive evidence', () => {
  test.each([
    ['a notification', '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}'],
    ['a request', '{"jsonrpc":"2.0","id":1,"method":"roots/list"}'],
    ['a result, "jsonrpc" last', '{"id":1,"result":{},"jsonrpc":"2.0"}'],
    ['an error', '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'],
    ['a batch', '[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]'],
    ['leading whitespace', ' \t{"jsonrpc":"2.0","id":1,"result":{}}'],
  ])('claims %s', (_name, data) => {
    expect(claims(data)).toBe(true);
  });

  test.each([
    ['no jsonrpc member', '{"id":1,"result":{}}'],
    ['another version', '{"jsonrpc":"1.0","id":1,"result":{}}'],
    ['jsonrpc without method, result or error', '{"jsonrpc":"2.0","id":1}'],
    [
      '"jsonrpc" only inside a string',
      '{"type":"text","agent":"a","final":false,"delta":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"x\\"}"}',
    ],
    ['a batch of something else', '[{"type":"text"}]'],
    ['a broken batch', '[{"jsonrpc":"2.0","method":"a"}'],
    ['the empty priming event', ''],
    ['text', 'jsonrpc 2.0'],
  ])('leaves %s to the others', (_name, data) => {
    expect(claims(data)).toBe(false);
  });
});

describe('evidence beyond the bytes', () => {
  const decodeAt = (url: string, body: string) => {
    const session = createCollectingSession();
    session.decodeLeg([{ bytes: encodeUtf8(body) }], { url });
    return session.finish();
  };

  it('an MCP POST answered by a priming event alone, then closed, is JSON-RPC by its URL, and resumable', () => {
    const result = decodeAt('https://example.com/mcp', 'id: evt-0\nretry: 3000\ndata: \n\n');
    expect(result.formats).toEqual(['json-rpc']);
    expect(result.detections[0]).toMatchObject({ by: 'url', detail: '/mcp' });
    expect(result.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.rule)).toEqual([
      'json-rpc.resumable-end',
    ]);
  });

  it("the same events at another URL are nobody's", () => {
    expect(decodeAt('https://example.com/feed', 'id: evt-0\ndata: \n\n').formats).toEqual(['json-events']);
  });
});

describe('no overlap with the other dialects', () => {
  const others = [
    ...listSseFixtures().map((name) => [name, readFixture(name)] as const),
    ...listProviderFixtures()
      .filter((name) => !name.startsWith('json-rpc/'))
      .map((name) => [name, readProviderFixture(name)] as const),
    ...readdirSync(EXTERNAL_FIXTURES_DIR, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.sse') && !name.startsWith('json-rpc'))
      .map((name) => [name, readExternalFixture(name)] as const),
  ];

  test.each(others)('%s: no event is taken for JSON-RPC', (_name, bytes) => {
    expect(framesOf(bytes).filter((f) => claims(f.data, f.event))).toEqual([]);
  });

  const ours = [
    ...listProviderFixtures()
      .filter((name) => name.startsWith('json-rpc/'))
      .map((name) => [name, readProviderFixture(name)] as const),
    ...readdirSync(`${EXTERNAL_FIXTURES_DIR}/json-rpc`)
      .filter((name) => name.endsWith('.sse'))
      .map((name) => [name, readExternalFixture(`json-rpc/${name}`)] as const),
  ];

  test.each(ours)('%s: every JSON-RPC event is claimed by json-rpc alone', (_name, bytes) => {
    const claimed = framesOf(bytes).filter((f) => f.data.trim() !== '' && f.event !== 'endpoint');
    expect(claimed.length).toBeGreaterThan(0);
    for (const frame of claimed) expect(claimants(frame), frame.data.slice(0, 80)).toEqual(['json-rpc']);
  });

  it('is registered, with its own terminal events and the labels of its block kinds', () => {
    expect(DIALECT_REGISTRY.get('json-rpc')).toBe(jsonRpcDialect);
    expect(jsonRpcDialect.terminator).toBe('dialect');
    expect(blockKindLabels(DIALECT_REGISTRY).get('structured_content')).toBe('Structured content');
  });
});
