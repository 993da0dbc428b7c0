import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../src-shared/testing/fixtures';
import { main } from './main';
import { memoryIo } from './test-io';

const run = async (args: string[], stdin?: string | Uint8Array) => {
  const io = memoryIo(stdin);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

const lines = (text: string): unknown[] => text.trim().split('\n').map((l) => JSON.parse(l) as unknown);

describe('stream-inspector frames', () => {
  it('prints each event as an EventSource dispatches it, then the end state', async () => {
    const { code, out } = await run(['frames', '--json', '-'], 'id: 7\ndata: a\ndata: b\n\nevent: ping\ndata: c\n\nretry: 1500\ndata: tail');
    expect(code).toBe(0);
    expect(lines(out)).toEqual([
      { file: '-', event: 'message', data: 'a\nb', id: '7' },
      { file: '-', event: 'ping', data: 'c', id: '7' },
      { file: '-', end: true, lastEventId: '7', retry: 1500 },
    ]);
  });

  it.each(['1', '7', 'random:1', 'random:99'])('gives the same output with --rechunk %s', async (rechunk) => {
    const file = fixturePath('xml_stream_examples.captured.xml.sse');
    const whole = await run(['frames', '--json', file]);
    const rechunked = await run(['frames', '--json', '--rechunk', rechunk, file]);
    expect(rechunked.out).toBe(whole.out);
    expect(lines(whole.out)).toHaveLength(146 + 1);
  });

  it('rejects a malformed --rechunk with a usage error', async () => {
    const { code, err } = await run(['frames', '--json', '--rechunk', 'sometimes', '-']);
    expect(code).toBe(2);
    expect(err).toContain('--rechunk takes N (bytes) or random:SEED');
  });
});

describe('stream-inspector inspect', () => {
  it('summarises a clean stream and exits 0', async () => {
    const { code, out } = await run(['inspect', fixturePath('json_stream.json.sse')]);
    expect(code).toBe(0);
    expect(out).toContain('json');
    expect(out).toContain('11111111-1111-4111-8111-111111111111');
    expect(out).toMatch(/23\s+text/);
  });

  it('exits 1 on an error frame, so QA pipelines can gate on recordings', async () => {
    const { code, out } = await run(['inspect', '--json', fixturePath('error_midstream.json.sse')]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { diagnostics: { rule: string; severity: string }[]; errors: number };
    expect(report.diagnostics).toContainEqual(expect.objectContaining({ rule: 'stream.error-frame', severity: 'error' }));
    expect(report.errors).toBeGreaterThan(0);
  });

  it('reads standard input', async () => {
    const { code, out } = await run(['inspect', '--json', '-'], readFixture('frontend_tools.xml.sse'));
    expect(code).toBe(0);
    expect((JSON.parse(out) as { formats: string[] }).formats).toEqual(['xml']);
  });

  it('honours --format and rejects an unknown one', async () => {
    expect((await run(['inspect', '--format', 'yaml', '-'])).code).toBe(2);
    const forced = await run(['inspect', '--json', '--format', 'json', fixturePath('frontend_tools.xml.sse')]);
    expect((JSON.parse(forced.out) as { formats: string[] }).formats).toEqual(['json']);
  });

  it('reports a missing file as an I/O error with exit code 2', async () => {
    const { code, err } = await run(['inspect', 'no/such/file.sse']);
    expect(code).toBe(2);
    expect(err).toContain('no/such/file.sse');
  });
});

describe('stream-inspector blocks', () => {
  it('lists the pending frontend tool of a paused run', async () => {
    const { code, out } = await run(['blocks', fixturePath('frontend_tools.json.sse')]);
    expect(code).toBe(0);
    expect(out).toContain('awaits user_confirm (toolu_synth_confirm)');
  });
});

describe('the stream-inspector bin', () => {
  it('runs from the sources in a fresh checkout (no build step)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/stream-inspector.mjs', 'inspect', '--json', fixturePath('probe_citations.json.sse')]);
    expect((JSON.parse(stdout) as { envelopeTypes: Record<string, number> }).envelopeTypes['citation']).toBe(3);
  });

  it('prints usage and exits 2 without a command', async () => {
    const { code, err } = await run([]);
    expect(code).toBe(2);
    expect(err).toContain('Usage:');
  });
});
