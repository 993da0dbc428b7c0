import { describe, expect, test } from 'vitest';
import { readFixture } from '../../src-main/testing/fixtures';
import { decodeBytes } from '../pipeline/session-decoder';
import { diffSessions } from './diff';
import { readDiffExport, writeDiffExport, type ExportedSession } from './export';
import { DIFF_EXPORT_FORMAT } from './export-format';

const side = (id: string, title: string, format: ExportedSession['format'], path: string): ExportedSession => ({
  id,
  title,
  format,
  source: { kind: 'file', path, importer: 'sse' },
});

const LEFT = side('s-1', 'example_1 xml', 'xml', '/captures/example_1.xml.sse');
const RIGHT = side('s-2', 'example_1 agent_base', 'json', '/captures/example_1.agent_base.json.sse');

const diffOf = (left: string, right: string) =>
  diffSessions(decodeBytes(readFixture(left)), decodeBytes(readFixture(right)));

describe('an exported diff reads back', () => {
  test.each([
    ['example_1.xml.sse', 'example_1.agent_base.json.sse'],
    ['multi_agent.xml.sse', 'multi_agent.json.sse'],
    ['probe_escaping.json.sse', 'probe_escaping.xml.sse'],
    ['frontend_tools.json.sse', 'json_stream.json.sse'],
  ])('%s against %s: the same diff and the same two sessions', (left, right) => {
    const diff = diffOf(left, right);
    const read = readDiffExport(writeDiffExport(diff, LEFT, RIGHT, Date.UTC(2026, 10, 30, 12)));
    expect(read.diff).toEqual(JSON.parse(JSON.stringify(diff)));
    expect(read.sessions).toEqual({ left: LEFT, right: RIGHT });
    expect(read.exportedAt).toBe('2026-11-30T12:00:00.000Z');
  });
});

describe('a file that is not an export this version reads is refused, saying what and where', () => {
  const good = JSON.parse(writeDiffExport(diffOf('example_1.xml.sse', 'example_1.json.sse'), LEFT, RIGHT, 0)) as Record<
    string,
    unknown
  >;
  /** The file with the value at `path` (keys and indexes) replaced, or removed when `value` is undefined. */
  const edited = (path: (string | number)[], value?: unknown): string => {
    const file = structuredClone(good);
    let at: Record<string | number, unknown> = file;
    for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    if (value === undefined) delete at[last];
    else at[last] = value;
    return JSON.stringify(file);
  };
  const deep = `{"format":${JSON.stringify(DIFF_EXPORT_FORMAT)},"version":1,"rows":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

  test.each([
    ['empty', '', /^not JSON/],
    ['cut short', JSON.stringify(good).slice(0, 500), /^not JSON/],
    ['an array', '[1, 2]', /not a diff export/],
    ['a recording line', '{"type":"header","version":1}', /not a diff export/],
    ['a newer version', edited(['version'], 2), /version 2; this version of the inspector reads version 1/],
    ['no version', edited(['version']), /version undefined/],
    ['rows missing', edited(['rows']), /file\.rows: expected an array, got undefined/],
    [
      'a row status no diff makes',
      edited(['rows', 0, 'status'], 'similar'),
      /file\.rows\[0\]\.status: expected one of .*, got "similar"/,
    ],
    [
      'an unknown normalisation',
      edited(['rows', 1, 'normalisations'], ['magic']),
      /file\.rows\[1\]\.normalisations\[0\]/,
    ],
    ['a negative count', edited(['counts', 'equal'], -1), /file\.counts\.equal/],
    ['a field it does not know', edited(['extra'], true), /file\.extra: is not a known field/],
    [
      'a block text that is not text',
      edited(['rows', 0, 'left', 'text'], { nested: [[[]]] }),
      /file\.rows\[0\]\.left\.text: expected a string/,
    ],
    ['a session without a source', edited(['sessions', 'left', 'source']), /file\.sessions\.left\.source/],
    ['deeply nested JSON', deep, /damaged diff export: file\./],
  ])('%s', (_name, text, message) => {
    expect(() => readDiffExport(text)).toThrow(message);
  });
});
