import { expect, test } from 'vitest';
import type { Envelope } from '../../src-shared/envelope/types';
import type { Block } from '../../src-shared/reconstruct/types';
import { parseInline } from './args';
import { blockText, NO_BLOCKS } from './commands/blocks';
import { decodeFile } from './decode-file';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { printJson, terminalIo } from './io';
import { memoryIo, runCli } from './test-io';

/**
 * `blocks` streams the file (stream-file.ts: blocks printed as they settle, in the order they
 * opened) and prints what the whole decode's blocks print, as text and as JSON, on every
 * stream the project ships.
 */

/** A block with the first unified event among its envelopes, as `blocks --json` shows it. */
function withUnified(block: Block, envelopes: readonly Envelope[]): object {
  const unified = block.envelopes.map((seq) => envelopes[seq]?.unified).find((u) => u !== undefined);
  return unified ? { ...block, unified } : block;
}

test.each(CORPUS_FILES)('%s: blocks prints the whole decode’s blocks', async (name) => {
  const whole = await decodeFile(
    name,
    'auto',
    { ...memoryIo(), cwd: CORPUS_ROOT },
    { inline: parseInline(undefined, undefined) },
  );
  const text = memoryIo();
  terminalIo(text).stdout(whole.blocks.length ? whole.blocks.map(blockText).join('') : NO_BLOCKS);
  const json = memoryIo();
  printJson(
    terminalIo(json),
    whole.blocks.map((b) => withUnified(b, whole.envelopes)),
  );

  expect((await runCli(['blocks', name], { cwd: CORPUS_ROOT })).out).toBe(text.out());
  expect((await runCli(['blocks', '--json', name], { cwd: CORPUS_ROOT })).out).toBe(json.out());
});

test('blocks of a stream without any says so, and --json prints an empty array', async () => {
  const stream = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n';
  expect(await runCli(['blocks', '-'], { stdin: stream })).toEqual({ code: 0, out: '(no blocks)\n', err: '' });
  expect((await runCli(['blocks', '--json', '-'], { stdin: stream })).out).toBe('[]\n');
  expect(
    (await runCli(['blocks', '-'], { stdin: 'data: {"type":"text","agent":"a","final":true,"delta":"hi"}\n\n' })).out,
  ).toBe('#0 a text complete: "hi"\n');
});
