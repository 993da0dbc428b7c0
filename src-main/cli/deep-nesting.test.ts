import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_INDENT } from '../../src-shared/agents/names';
import { deeplyNestedCapture } from '../../src-shared/testing/deep-json';
import { nestedAgentsCapture } from '../../src-shared/testing/nested-agents';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../services/connection/loopback-testing';
import { runCli } from './test-io';

let dir: string;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-deep-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCli(args, { cwd: dir });

describe('deeply nested JSON does not crash the CLI', () => {
  it('inspect of a capture with 5,000 levels in an envelope exits normally with its findings', async () => {
    await writeFile(join(dir, 'deep.sse'), deeplyNestedCapture(5000));
    const text = await run(['inspect', 'deep.sse']);
    expect(text.err).toBe('');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/3 envelopes/);
    expect(text.out).toMatch(/envelope\.over-budget/);
    const json = await run(['inspect', '--json', 'deep.sse']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ envelopes: 3, blocks: [{ kind: 'text', status: 'complete' }] });
    const blocks = await run(['blocks', '--json', 'deep.sse']);
    expect(blocks.code).toBe(0);
    await writeFile(join(dir, 'deeper.sse'), deeplyNestedCapture(5001));
    const diff = await run(['diff', 'deep.sse', 'deeper.sse']);
    expect(diff.err).toBe('');
    expect([0, 1]).toContain(diff.code);
  });

  it('record of a server that sends it keeps every event and writes the end record', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(deeplyNestedCapture(5000));
    });
    const { code, err } = await run(['record', `${server.url}/agent/run`, '-o', 'deep.ndjson', '--json']);
    expect(err).toMatch(/complete|done/);
    expect(code).toBe(0);
    const records = (await readFile(join(dir, 'deep.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(records.at(-1)?.type).toBe('end');
    const inspected = await run(['inspect', '--json', 'deep.ndjson']);
    expect(JSON.parse(inspected.out)).toMatchObject({ envelopes: 3 });
  });
});

describe('deeply nested agents', () => {
  it('inspect of 3,000 nested agents prints output that grows with the agents, not with their depth squared', async () => {
    const capture = nestedAgentsCapture(3000);
    await writeFile(join(dir, 'nested.sse'), capture);
    const text = await run(['inspect', 'nested.sse']);
    expect(text.code).toBe(0);
    // Indentation stops at MAX_INDENT levels; deeper agents say their depth.
    expect(text.out).toContain(`${' '.repeat(2 + 2 * MAX_INDENT)}└ [depth 2999] agent-2999  3 envelopes`);
    expect(text.out.length).toBeLessThan(capture.length);
    // The filter language names them short: the deepest agent's name is its depth and index.
    const check = await run(['check', 'nested.sse', '--expect', 'some agent == "sub d2999#1"']);
    expect(check.code, check.out).toBe(0);
  });
});
