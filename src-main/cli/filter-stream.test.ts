import { expect, test } from 'vitest';
import { envelopeReader, parseFilter, type EnvelopeSubject } from '../../src-shared/filter';
import { compileFilter } from '../../src-shared/filter/evaluate';
import { parseInline } from './args';
import { decodeFile } from './decode-file';
import { envelopeJson, subjectsOf } from './filter-option';
import { terminalIo } from './io';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { streamSubjects } from './stream-subjects';
import { memoryIo, runCli } from './test-io';

/**
 * A filter selects from the envelopes streamed in two passes (stream-subjects.ts) what it
 * selects from the whole decode's subjects: every envelope's subject (its agent's name, its
 * block as it ends, its findings and time) is the same, on every stream the project ships.
 */

/** What a subject says, its block as it is when matched (a streamed block gives up its content after). */
const facts = (s: EnvelopeSubject) => ({
  seq: s.envelope.seq,
  agentName: s.agentName,
  time: s.time,
  findings: s.findings.map((d) => `${d.rule}: ${d.message}`),
  block: s.block && { id: s.block.id, kind: s.block.kind, status: s.block.status, content: s.block.content },
});

test.each(CORPUS_FILES)('%s: every streamed subject is the whole decode’s', async (name) => {
  const io = { ...memoryIo(), cwd: CORPUS_ROOT };
  const whole = subjectsOf(await decodeFile(name, 'auto', io)).map(facts);
  const streamed: ReturnType<typeof facts>[] = [];
  await streamSubjects(name, 'auto', io, {}, (s) => streamed.push(facts(s)));
  expect(streamed.sort((a, b) => a.seq - b.seq)).toEqual(whole);
});

/** A filter that reads the block, the findings, the agent's name and the time. */
const FILTER = 'block.status == "complete" && (agent == "main" || finding.severity == "warning") && time >= 0';

test.each(CORPUS_FILES)(
  '%s: inspect --filter and frames --filter print what the whole decode selects',
  async (name) => {
    const io = { ...memoryIo(), cwd: CORPUS_ROOT };
    const decoded = await decodeFile(name, 'auto', io, { inline: parseInline(undefined, undefined) });
    const selected = subjectsOf(decoded).filter(compileFilter(parseFilter(FILTER), envelopeReader()));
    const inspected = JSON.parse(
      (await runCli(['inspect', '--json', '--filter', FILTER, name], { cwd: CORPUS_ROOT })).out,
    ) as { matches: unknown };
    expect(inspected.matches).toEqual(JSON.parse(JSON.stringify(selected.map(envelopeJson))));

    const keep = new Set(selected.map((s) => `${s.envelope.leg}:${s.envelope.frame}`));
    const frames = decoded.frames.flatMap((legFrames, leg) =>
      legFrames
        .filter((f) => keep.has(`${leg}:${f.seq}`))
        .map((f) => JSON.stringify({ file: name, leg, event: f.event || 'message', data: f.data, id: f.id })),
    );
    const printed = (await runCli(['frames', '--json', '--filter', FILTER, name], { cwd: CORPUS_ROOT })).out;
    // As printed: through the terminal-safe io, every command's.
    const expected = memoryIo();
    terminalIo(expected).stdout(
      [...frames, JSON.stringify({ file: name, end: true, matched: keep.size }), ''].join('\n'),
    );
    expect(printed).toBe(expected.out());
  },
);
