import { describe, expect, it } from 'vitest';
import { DIALECT_IDS } from '../../../../src-shared/dialects/registry';
import { CONTROL_KINDS, type Envelope } from '../../../../src-shared/envelope/types';
import { EnvelopeTable } from './envelope-table';
import { SpoolFile } from './spool-file';
import { nestedArrayText } from '../../../../src-shared/testing/deep-json';
import { jsonText } from '../../../../src-shared/json/tree';

const envelope = (seq: number, init: Partial<Envelope>): Envelope => ({
  seq,
  frame: seq,
  agent: 'a',
  type: 'text',
  final: false,
  delta: '',
  extras: {},
  leg: 0,
  dialect: 'json',
  byteStart: 0,
  byteEnd: 0,
  receivedAt: 0,
  ...init,
});

describe('EnvelopeTable', () => {
  it('reads back every registered dialect with every control kind and final flag', () => {
    const table = new EnvelopeTable(() => undefined, new SpoolFile());
    const written: Envelope[] = [];
    for (const dialect of DIALECT_IDS) {
      for (const control of [undefined, ...CONTROL_KINDS]) {
        for (const final of [false, true]) {
          const e = envelope(written.length, { dialect, final, ...(control ? { control } : {}) });
          written.push(e);
          table.add(e);
        }
      }
    }
    for (const e of written) {
      const read = table.get(e.seq);
      expect([read?.dialect, read?.control, read?.final]).toEqual([e.dialect, e.control, e.final]);
    }
  });

  it('keeps deltas, extras and unified events on disk and reads each back exactly, deep nesting included', () => {
    const table = new EnvelopeTable(() => undefined, new SpoolFile());
    const deep = JSON.parse(nestedArrayText(5000)) as unknown;
    const written: Envelope[] = [
      envelope(0, { delta: 'héllo 世界 🙂' }),
      envelope(1, {
        delta: '',
        extras: { id: 'toolu_1', name: 'search', index: 3, nested: { a: [1, 2.5, null, true] } },
      }),
      envelope(2, {
        delta: 'x'.repeat(70_000),
        extras: { deep },
        unified: {
          family: 'stream.content_block_delta',
          ids: { response_id: 'r1', output_index: 0 },
          kind: 'text',
          channel: 'output_text',
        },
      }),
      envelope(3, { delta: 'after', unified: { family: 'stream.message_delta', ids: {}, stop_reason: 'end_turn' } }),
      envelope(4, {}),
    ];
    for (const e of written) table.add(e);
    for (const e of written) {
      // Compared as text: a deep comparison of 5,000 levels would overflow the test's own stack.
      expect(jsonText(table.get(e.seq))).toBe(jsonText(e));
      expect(table.deltaBytes(e.seq)).toBe(new TextEncoder().encode(e.delta).length);
    }
    expect(() => table.add(envelope(9, {}))).toThrow(/in order/);
  });

  it('refuses an envelope of a dialect the registry does not know instead of reading it back as another', () => {
    const table = new EnvelopeTable(() => undefined, new SpoolFile());
    expect(() => table.add(envelope(0, { dialect: 'unregistered' as Envelope['dialect'] }))).toThrow(
      /unregistered dialect/,
    );
  });
});
