import { describe, expect, it } from 'vitest';
import { DIALECT_IDS } from '../../../src-shared/dialects/registry';
import { CONTROL_KINDS, type Envelope } from '../../../src-shared/envelope/types';
import { EnvelopeTable } from './envelope-table';
import { SpoolFile } from './spool-file';

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

  it('refuses an envelope of a dialect the registry does not know instead of reading it back as another', () => {
    const table = new EnvelopeTable(() => undefined, new SpoolFile());
    expect(() => table.add(envelope(0, { dialect: 'unregistered' as Envelope['dialect'] }))).toThrow(/unregistered dialect/);
  });
});
