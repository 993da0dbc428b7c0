import { describe, expect, it } from 'vitest';
import { classifyControlFrame } from './stream-control';

describe('classifyControlFrame', () => {
  it('recognises [DONE] and the router error frame whatever its key order', () => {
    expect(classifyControlFrame('[DONE]')).toEqual({ kind: 'done' });
    for (const data of [
      '{"error":"E","message":"m","traceback":"t"}',
      '{"traceback":"t","message":"m","error":"E"}',
      '{"message":"m","traceback":"t","error":"E","extra":{"a":1}}',
    ]) {
      expect(classifyControlFrame(data)).toMatchObject({
        kind: 'error-frame',
        error: 'E',
        message: 'm',
        traceback: 't',
      });
    }
  });

  it('recognises an error frame whose nested object or escaped string ends like a "type" member', () => {
    expect(classifyControlFrame('{"error":"E","message":"m","traceback":"t","meta":{"a":1,"type":"x"}}')).toMatchObject(
      { kind: 'error-frame' },
    );
    expect(classifyControlFrame('{"error":"E","traceback":"t","message":"a\\",\\"type\\":\\"b"}')).toMatchObject({
      kind: 'error-frame',
    });
    expect(classifyControlFrame('{"error":"E","traceback":"t","message":"m","list":[{"type":"x"}]}')).toMatchObject({
      kind: 'error-frame',
    });
  });

  it('is no error frame when the object has a "type", first, last or in between', () => {
    for (const data of [
      '{"type":"error","error":"E","message":"m","traceback":"t"}',
      '{"error":"E","message":"m","traceback":"t","type":"error"}',
      '{"error":"E","type":"x","message":"m","traceback":"t"}',
      '{"error":"E","message":"m","traceback":"t","type":"a\\"b"}',
    ]) {
      expect(classifyControlFrame(data), data).toBeUndefined();
    }
  });

  it('is no error frame without "error" or "traceback", or when the data is not a JSON object', () => {
    for (const data of [
      '{"message":"m","traceback":"t"}',
      '{"error":"E","message":"m"}',
      '["error"]',
      '{"error": "E", "traceback": ',
      'plain "error" text',
    ]) {
      expect(classifyControlFrame(data), data).toBeUndefined();
    }
  });

  it('agrees with parsing on objects that name a "type" anywhere, nested, or in strings that look like members', () => {
    // A seeded generator: the guards that skip parsing must never hide an error frame.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = [',"type":"', '"', '}', 'x', '\\', ':', ',', 'type', ' '];
    const text = (): string => Array.from({ length: next(5) }, () => pieces[next(pieces.length)]).join('');
    const keys = ['error', 'traceback', 'message', 'type', 'meta'];
    for (let i = 0; i < 2000; i++) {
      const object: Record<string, unknown> = {};
      for (let k = next(6); k > 0; k--) {
        const key = keys[next(keys.length)] as string;
        object[key] = next(3) === 0 ? { type: text() } : text();
      }
      const data = JSON.stringify(object);
      const isErrorFrame = 'error' in object && 'traceback' in object && !('type' in object);
      expect(classifyControlFrame(data) !== undefined, data).toBe(isErrorFrame);
    }
  });
});
