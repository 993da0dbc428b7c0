import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHar, type HarExportLeg } from '../../../src-shared/export/har';
import { legHeader } from '../../../src-shared/export/sse-legs';
import { readFixture } from '../../testing/fixtures';
import { HarEntryChoiceError, openSource } from './index';
import { concatChunks, decodeSource, readLegs } from './testing';

/**
 * Files this inspector exports, read back as the sessions they were: a raw capture of several
 * legs (its leg header), a HAR whose entries say how each leg ended, an NDJSON of envelopes.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'exported-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, content: string | Uint8Array): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};

const RUN = Buffer.from(readFixture('frontend_tools.json.sse'));
const RESUME = Buffer.from(readFixture('frontend_tools_resume.json.sse'));

describe('a raw capture of several legs', () => {
  it('opens as the legs its header names, each exactly its bytes, the continuation decoding as leg 1', async () => {
    const path = await file(
      'two.sse',
      Buffer.concat([Buffer.from(legHeader([RUN.length, RESUME.length])), RUN, RESUME]),
    );
    const source = await openSource(path);
    expect(source.legs.map((l) => l.byteCount)).toEqual([RUN.length, RESUME.length]);
    const [run = [], resume = []] = await readLegs(source);
    expect(concatChunks(run).equals(RUN)).toBe(true);
    expect(concatChunks(resume).equals(RESUME)).toBe(true);
    const decoded = await decodeSource(source);
    expect(decoded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(decoded.envelopes.some((e) => e.leg === 1)).toBe(true);
    expect(source.diagnostics).toEqual([]);
  });

  it('import.leg-sizes: a header whose sizes do not add up to the file is reported, and the file read as one stream', async () => {
    const path = await file('edited.sse', Buffer.concat([Buffer.from(legHeader([RUN.length, 10])), RUN]));
    const source = await openSource(path);
    expect(source.diagnostics.map((d) => [d.rule, d.severity])).toEqual([['import.leg-sizes', 'warning']]);
    expect(source.legs).toHaveLength(1);
    expect(
      concatChunks((await readLegs(source))[0] ?? [])
        .subarray(-RUN.length)
        .equals(RUN),
    ).toBe(true);
  });

  it('must not: a capture starting with another comment is one leg, with nothing to report', async () => {
    const path = await file(
      'comment.sse',
      Buffer.concat([Buffer.from(': agent-stream-inspector legs of a kind\n'), RUN]),
    );
    const source = await openSource(path);
    expect(source.legs).toHaveLength(1);
    expect(source.diagnostics).toEqual([]);
  });
});

describe('a HAR this inspector exported', () => {
  const leg = (body: Uint8Array, url: string, end: HarExportLeg['end']): HarExportLeg => ({
    request: { method: 'POST', url, headers: [], body: '{}' },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']] },
    startedAt: Date.UTC(2026, 0, 2),
    body,
    end,
    stream: true,
  });
  const legs = [
    leg(RUN, 'http://h/agent/run', { reason: 'done' }),
    leg(RESUME, 'http://h/agent/tool_results', { reason: 'aborted', message: 'Stopped by the user' }),
  ];

  it('opens every entry as a leg of one session, each ending as the HAR says', async () => {
    const path = await file('own.har', buildHar({ creator: { name: 'Agent Stream Inspector', version: '1' }, legs }));
    const source = await openSource(path);
    expect(source.legs.map((l) => [l.request?.url, l.outcome])).toEqual([
      ['http://h/agent/run', { reason: 'done' }],
      ['http://h/agent/tool_results', { reason: 'aborted', message: 'Stopped by the user' }],
    ]);
  });

  it('must not: the same entries without how their legs ended ask which to open, listing every entry', async () => {
    const har = JSON.parse(buildHar({ creator: { name: 'DevTools', version: '1' }, legs })) as {
      log: { entries: Record<string, unknown>[] };
    };
    for (const entry of har.log.entries) delete entry['_legEnd'];
    const error = await openSource(await file('other.har', JSON.stringify(har))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarEntryChoiceError);
    expect((error as HarEntryChoiceError).entries.map((e) => e.url)).toEqual([
      'http://h/agent/run',
      'http://h/agent/tool_results',
    ]);
  });
});

describe('an NDJSON of envelopes this inspector exported', () => {
  const line = (fields: Record<string, unknown>) =>
    `${JSON.stringify({ seq: 0, frame: 0, final: false, extras: {}, dialect: 'json', byteStart: 0, byteEnd: 1, receivedAt: 0, ...fields })}\n`;

  it('sends each envelope as its wire envelope, in its leg, [DONE] where the stream had it', async () => {
    const path = await file(
      'env.ndjson',
      [
        line({
          leg: 0,
          agent: 'a',
          type: 'tool_call',
          delta: '{"x":1}',
          final: true,
          extras: { id: 't1', name: 'calc' },
        }),
        line({ leg: 0, agent: 'a', type: '[DONE]', delta: '', final: true, control: 'done' }),
        line({ leg: 1, agent: 'a', type: 'undecoded', delta: 'not json', final: true, control: 'undecoded' }),
        line({ leg: 1, agent: 'a', type: 'text', delta: '', control: 'block-open' }),
      ].join(''),
    );
    const source = await openSource(path);
    expect(source.kind).toBe('ndjson-envelopes');
    const [first = [], second = []] = await readLegs(source);
    expect(concatChunks(first).toString()).toBe(
      'data: {"type":"tool_call","agent":"a","final":true,"delta":"{\\"x\\":1}","id":"t1","name":"calc"}\n\ndata: [DONE]\n\n',
    );
    expect(concatChunks(second).toString()).toBe('data: not json\n\n');
  });

  it("sends each leg's wire bytes, in order, each line's at its receive time; lines without bytes send nothing", async () => {
    const path = await file(
      'wire.ndjson',
      [
        line({
          leg: 0,
          agent: 'm',
          type: 'message_start',
          delta: '',
          receivedAt: 5,
          wire: 'event: a\r\ndata: 1\r\n\r\n',
        }),
        line({ leg: 0, agent: 'm', type: 'text', delta: 'x', receivedAt: 5 }),
        line({ leg: 1, agent: 'm', type: 'text', delta: '', receivedAt: 9, wire: '/w==', wireEncoding: 'base64' }),
      ].join(''),
    );
    const source = await openSource(path);
    const [first = [], second = []] = await readLegs(source);
    expect(first.map((c) => [Buffer.from(c.bytes).toString(), c.receivedAt])).toEqual([
      ['event: a\r\ndata: 1\r\n\r\n', 5],
    ]);
    // Not UTF-8: carried as base64, given back byte for byte.
    expect(second.map((c) => [...c.bytes])).toEqual([[0xff]]);
    expect(source.diagnostics).toEqual([]);
  });

  it.each([
    ['a wire that is no string', { wire: 42 }, /Line 2 \(byte \d+\) has wire bytes that are no string/],
    ['a wire that is not the base64 it says', { wire: '%%', wireEncoding: 'base64' }, /not the base64 it says/],
    ['an encoding with no wire', { wireEncoding: 'base64' }, /has wire bytes that are no string/],
  ])('import.skipped-item: %s is reported as lost, its line skipped, the rest sent', async (_name, fields, message) => {
    const path = await file(
      'damaged-wire.ndjson',
      [
        line({ leg: 0, agent: 'm', type: 'text', delta: '', wire: 'data: 1\n\n' }),
        line({ leg: 0, agent: 'm', type: 'text', delta: '', frame: 1, ...fields }),
        line({ leg: 0, agent: 'm', type: 'text', delta: '', frame: 2, wire: 'data: 3\n\n' }),
      ].join(''),
    );
    const source = await openSource(path);
    expect(concatChunks((await readLegs(source))[0] ?? []).toString()).toBe('data: 1\n\ndata: 3\n\n');
    expect(source.diagnostics.map((d) => [d.rule, d.severity, d.at.line])).toEqual([
      ['import.skipped-item', 'error', 2],
    ]);
    expect(source.diagnostics[0]?.message).toMatch(message);
  });

  it('import.skipped-item: a line that is no exported envelope, in an export with wire bytes, is reported and not sent', async () => {
    const path = await file(
      'foreign.ndjson',
      [line({ leg: 0, agent: 'm', type: 'text', delta: '', wire: '0:"a"\n' }), '{"type":"text","delta":"b"}\n'].join(
        '',
      ),
    );
    const source = await openSource(path);
    expect(concatChunks((await readLegs(source))[0] ?? []).toString()).toBe('0:"a"\n');
    expect(source.diagnostics.map((d) => [d.rule, d.at.line])).toEqual([['import.skipped-item', 2]]);
    expect(source.diagnostics[0]?.message).toMatch(/Line 2 \(byte \d+\) is no exported envelope; skipped/);
  });

  it('must not: envelopes as a server sends them are one leg, sent as written', async () => {
    const wire = '{"type":"text","agent":"a","final":false,"delta":"Hi","leg":3}\n';
    const source = await openSource(await file('wire.ndjson', wire));
    const [only = []] = await readLegs(source);
    expect(source.legs).toHaveLength(1);
    expect(concatChunks(only).toString()).toBe(`data: ${wire.trimEnd()}\n\n`);
  });
});
