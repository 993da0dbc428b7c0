import { nameAgents } from '../../src-shared/agents/names';
import type { Diagnostic } from '../../src-shared/diagnostics/types';
import type { Envelope } from '../../src-shared/envelope/types';
import type { EnvelopeSubject } from '../../src-shared/filter';
import type { FormatChoice } from '../../src-shared/pipeline/types';
import type { AgentInfo, Block } from '../../src-shared/reconstruct/types';
import type { DecodeFileOptions } from './decode-file';
import type { CliIo } from './io';
import { streamFile, type SharedReading, type StreamedFile } from './stream-file';

/** What a subject needs that is known only once the whole file is read (the first pass). */
export interface FileFacts {
  names: ReturnType<typeof nameAgents>;
  diagnostics: readonly Diagnostic[];
  /** Where each finding goes (envelopeSubjects' rule): its envelope, the first of its frame, the first of its block. */
  onEnvelope: Map<number, number[]>;
  onFrame: Map<string, number[]>;
  onBlock: Map<number, number[]>;
  /** When time counts from: the first request, else the first envelope with a receive time. */
  start: number;
}

type Subject = { -readonly [K in keyof EnvelopeSubject]: EnvelopeSubject[K] } & { found: number[] };

/**
 * Every envelope of FILE, passed to `onSubject` as a filter subject exactly as
 * envelopeSubjects builds them from a whole decode (src-shared/filter/subjects.ts), but read in
 * two streamed passes (stream-file.ts), so memory does not grow with the file. A subject holds
 * its agent's name, its findings and its block as it ends, which the first pass learns: the
 * agents (names are given in spawn order once all are known), the findings and where each
 * goes (a finding about the file goes to the first envelope of its leg). The second pass
 * builds each subject and passes it on once its block has settled, just before the block
 * gives up its content: what is held is the subjects of blocks still open. Subjects come in no
 * particular order (a block settles after later envelopes without one); a subject's block is
 * let go of its content once `onSubject` returns. A command that reads the file once already
 * (inspect's and check's report) passes the `facts` it gathered on that reading (factsReader),
 * and the first pass is not read again.
 */
export async function streamSubjects(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions,
  onSubject: (subject: EnvelopeSubject) => void,
  known?: FileFacts,
): Promise<void> {
  const facts = known ?? (await readFacts(file, format, io, options));
  const test = (subject: Subject): void => {
    const { found, ...rest } = subject;
    onSubject({ ...rest, findings: found.sort((a, b) => a - b).map((i) => facts.diagnostics[i]!) });
  };
  /** Subjects waiting for their block to settle, by block id. */
  const waiting = new Map<number, Set<Subject>>();
  const waitingBySeq = new Map<number, Subject>();
  /** An envelope's block is the last made of those that hold it. */
  const assign = (subject: Subject, block: Block): void => {
    const before = subject.block;
    if (before && before.id >= block.id) return;
    waiting.get(before?.id ?? -1)?.delete(subject);
    subject.block = block;
    waitingBySeq.set(subject.envelope.seq, subject);
    const set = waiting.get(block.id);
    if (set) set.add(subject);
    else waiting.set(block.id, new Set([subject]));
  };
  const settle = (block: Block): void => {
    for (const subject of waiting.get(block.id) ?? []) {
      waitingBySeq.delete(subject.envelope.seq);
      test(subject);
    }
    waiting.delete(block.id);
  };
  /** The subject of the envelope being decoded: matched at the next envelope if no block took it. */
  let current: Subject | undefined;
  let blocksSeen = 0;
  const streamed = await streamFile(file, format, io, options, {
    onEnvelope(envelope: Envelope) {
      if (current && !current.block) test(current);
      current = {
        envelope,
        agentName: facts.names.get(envelope.agent)?.name ?? envelope.agent,
        block: undefined,
        findings: [],
        time: envelope.receivedAt > 0 ? Math.max(0, envelope.receivedAt - facts.start) : 0,
        found: [...take(facts.onEnvelope, envelope.seq), ...take(facts.onFrame, `${envelope.leg}:${envelope.frame}`)],
      };
    },
    onBlock(block: Block) {
      if (block.id >= blocksSeen) {
        blocksSeen = block.id + 1;
        if (current && block.envelopes[0] === current.envelope.seq)
          current.found.push(...take(facts.onBlock, block.id));
        // A replay found late takes the envelopes it repeats from the first attempt (replay-detector.ts).
        for (const seq of block.envelopes) {
          const subject = seq === current?.envelope.seq ? current : waitingBySeq.get(seq);
          if (subject) assign(subject, block);
        }
      } else if (current && block.envelopes.at(-1) === current.envelope.seq) assign(current, block);
    },
    onSettled: settle,
  });
  if (current && !current.block) test(current);
  for (const block of streamed.held) settle(block);
  // Whatever still waits (a block that settled unseen) is matched as it ends.
  for (const set of waiting.values()) for (const subject of set) test(subject);
}

/** The findings `map` puts at `key`, taken out of it (each goes to one subject). */
function take<K>(map: Map<K, number[]>, key: K): number[] {
  const list = map.get(key) ?? [];
  map.delete(key);
  return list;
}

/** The first pass on its own: agents, findings and where each goes, and the clock's start. */
async function readFacts(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions,
): Promise<FileFacts> {
  const reader = factsReader();
  reader.end(await streamFile(file, format, io, options, reader.callbacks));
  return reader.facts();
}

/**
 * The first pass's reading, as callbacks another reading of the file can share: agents,
 * findings and where each goes, and the clock's start, known once the reading has `end`ed.
 */
export function factsReader(): SharedReading & { facts: () => FileFacts } {
  const agents = new Map<string, AgentInfo>();
  const envelopeAgents = new Set<string>();
  const found: Diagnostic[] = [];
  const firstOfLeg = new Map<number, number>();
  let first: number | undefined;
  let firstReceived: number | undefined;
  const callbacks = {
    onEnvelope(e: Envelope) {
      envelopeAgents.add(e.agent);
      first ??= e.seq;
      if (!firstOfLeg.has(e.leg)) firstOfLeg.set(e.leg, e.seq);
      if (e.receivedAt > 0) firstReceived ??= e.receivedAt;
    },
    onAgent: (agent: AgentInfo) => void (agents.has(agent.uuid) || agents.set(agent.uuid, agent)),
    onDiagnostic: (d: Diagnostic) => void found.push(d),
  };
  let ended: Pick<StreamedFile, 'fileDiagnostics' | 'startedAt'> | undefined;
  const facts = (): FileFacts => {
    const streamed = ended;
    if (!streamed) throw new Error('The file was not read to its end: its facts are not known.');
    // Findings about the file itself come first, as the whole decode lists them.
    const diagnostics = [...streamed.fileDiagnostics, ...found];
    const result: FileFacts = {
      names: nameAgents([...agents.values()], [...envelopeAgents]),
      diagnostics,
      onEnvelope: new Map(),
      onFrame: new Map(),
      onBlock: new Map(),
      start: streamed.startedAt ?? firstReceived ?? 0,
    };
    const add = <K>(map: Map<K, number[]>, key: K, index: number): void => {
      const list = map.get(key);
      if (list) list.push(index);
      else map.set(key, [index]);
    };
    diagnostics.forEach((d, i) => {
      if (d.at.envelope !== undefined) {
        if (d.at.envelope >= 0) add(result.onEnvelope, d.at.envelope, i);
      } else if (d.at.frame !== undefined) add(result.onFrame, `${d.at.leg ?? 0}:${d.at.frame}`, i);
      else if (d.at.block !== undefined) add(result.onBlock, d.at.block, i);
      else {
        const seq = (d.at.leg !== undefined ? firstOfLeg.get(d.at.leg) : undefined) ?? first;
        if (seq !== undefined && seq >= 0) add(result.onEnvelope, seq, i);
      }
    });
    return result;
  };
  return { callbacks, end: (streamed) => void (ended = streamed), facts };
}
