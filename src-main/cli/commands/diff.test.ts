import { describe, expect, it } from 'vitest';
import type { SessionDiff } from '../../../src-shared/diff/types';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { main } from '../main';
import { memoryIo } from '../test-io';

const run = async (args: string[], stdin?: Uint8Array) => {
  const io = memoryIo(stdin);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

describe('stream-inspector diff', () => {
  it('finds one run in xml and json equivalent and exits 0', async () => {
    const { code, out } = await run([
      'diff',
      fixturePath('frontend_tools.xml.sse'),
      fixturePath('frontend_tools.json.sse'),
    ]);
    expect(code).toBe(0);
    expect(out).toContain(
      'Blocks: 8 equal (1 after normalising), 0 changed, 0 only left, 0 only right — 0 inherent, 0 differences',
    );
    expect(out).toMatch(/= #0 +#0 +1 {2}meta_init +equal after normalising meta_init format/);
    expect(out).toContain('Envelope-level differences (blocks unaffected):');
    expect(out.trimEnd().endsWith('Equivalent.')).toBe(true);
  });

  it("names the upstream server's generation on its side's line only", async () => {
    const { out } = await run([
      'diff',
      fixturePath('example_1.agent_base.json.sse'),
      'resources/fixtures/external/openai-chat/deepseek-reasoning-tool-call.sse',
    ]);
    const [left, right] = out.split('\n').filter((line) => /^(LEFT|RIGHT) /.test(line));
    expect(left).toMatch(/: json · agent_base · \d+ blocks/);
    expect(right).toMatch(/: openai-chat · 4 blocks · 1 agent · awaiting tools$/);
  });

  it('says how each stream ended, and that two of equivalent blocks end differently', async () => {
    const text = readFixture('frontend_tools.json.sse');
    const withoutDone = new TextDecoder().decode(text).replace('data: [DONE]\n\n', '');
    const { code, out } = await run(
      ['diff', fixturePath('frontend_tools.json.sse'), '-'],
      new TextEncoder().encode(withoutDone),
    );
    // The blocks are what diff compares (exit 0); the end is said, never left for "Equivalent." to imply.
    expect(code).toBe(0);
    const [left, right] = out.split('\n').filter((line) => /^(LEFT|RIGHT) /.test(line));
    expect(left).toMatch(/ · 1 agent · awaiting tools$/);
    expect(right).toMatch(/^RIGHT {2}-: json · legacy · \d+ blocks · 1 agent · truncated$/);
    expect(out).toMatch(/\nEquivalent in their blocks; the streams end differently: awaiting tools \| truncated\.\n$/);
    const json = JSON.parse(
      (
        await run(
          ['diff', '--json', fixturePath('frontend_tools.json.sse'), '-'],
          new TextEncoder().encode(withoutDone),
        )
      ).out,
    ) as { ends: { left: { kind: string }; right: { kind: string } } };
    expect(json.ends.left.kind).toBe('paused');
    expect(json.ends.right.kind).toBe('truncated');
  });

  it('exits 1 when two different runs differ', async () => {
    const { code, out } = await run([
      'diff',
      fixturePath('frontend_tools.json.sse'),
      fixturePath('json_stream.json.sse'),
    ]);
    expect(code).toBe(1);
    expect(out).toMatch(/\n\d+ differences in their blocks; the streams end differently: awaiting tools \| done\.\n$/);
  });

  it('counts inherent differences only with --strict', async () => {
    const files = [fixturePath('example_1.json.sse'), fixturePath('example_1.agent_base.json.sse')];
    const lenient = await run(['diff', ...files]);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain('(inherent: no meta_files in agent_base)');
    const strict = await run(['diff', '--strict', ...files]);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('1 difference.');
  });

  it('prints the whole diff as JSON with --json', async () => {
    const { code, out } = await run([
      'diff',
      '--json',
      fixturePath('probe_escaping.json.sse'),
      fixturePath('probe_escaping.xml.sse'),
    ]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as SessionDiff & { files: { left: string; right: string } };
    expect(parsed.files.right).toBe(fixturePath('probe_escaping.xml.sse'));
    expect(parsed.counts).toMatchObject({ changed: 1, inherent: 1, differences: 0 });
    expect(parsed.rows.find((r) => r.status === 'changed')).toMatchObject({
      kind: 'text',
      inherent: 'xml-unescaped-cr',
    });
    expect(parsed.envelopes.differences.length).toBeGreaterThan(0);
  });

  it('reads one side from standard input', async () => {
    const { code } = await run(['diff', '-', fixturePath('json_stream.xml.sse')], readFixture('json_stream.json.sse'));
    expect(code).toBe(0);
  });

  it.each([[['diff', 'only-one']], [['diff', '-', '-']], [['diff', 'a', 'b', 'c']]])(
    'rejects %j with a usage error',
    async (args) => {
      const { code, err } = await run(args);
      expect(code).toBe(2);
      expect(err).toContain('stream-inspector diff:');
    },
  );
});
