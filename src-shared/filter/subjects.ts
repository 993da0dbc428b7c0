import { nameAgents } from '../agents/names';
import type { Diagnostic } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import type { DecodeResult } from '../pipeline/types';
import type { Block } from '../reconstruct/types';
import type { EnvelopeSubject } from './envelope-fields';

/**
 * Every envelope of a decoded session as a filter subject: its agent's name, its block and
 * its findings (on the envelope itself, on its frame, or on its block). `startedAt` is when
 * the first request was sent, on the clock of the receive times; without it time counts from
 * the first envelope.
 */
export function envelopeSubjects(
  result: Pick<DecodeResult, 'envelopes' | 'blocks' | 'agents' | 'diagnostics'>,
  startedAt?: number,
): EnvelopeSubject[] {
  const envelopes = result.envelopes;
  const names = nameAgents(
    result.agents,
    envelopes.map((e) => e.agent),
  );
  const blockOf = new Map<number, Block>();
  for (const block of result.blocks) for (const seq of block.envelopes) blockOf.set(seq, block);
  const firstOfFrame = new Map<string, number>();
  const firstOfLeg = new Map<number, number>();
  for (const e of envelopes) {
    const key = `${e.leg}:${e.frame}`;
    if (!firstOfFrame.has(key)) firstOfFrame.set(key, e.seq);
    if (!firstOfLeg.has(e.leg)) firstOfLeg.set(e.leg, e.seq);
  }
  const blockStart = new Map(result.blocks.map((b) => [b.id, b.envelopes[0]]));
  // A finding about the file (a hole in a recording, a damaged line) is on no envelope: it goes
  // to the first envelope of its leg, else of the session, so that assertions see every finding.
  const firstOfFile = (leg: number | undefined): number | undefined =>
    (leg !== undefined ? firstOfLeg.get(leg) : undefined) ?? envelopes[0]?.seq;
  const findings = findingsByEnvelope(
    result.diagnostics,
    (leg, frame) => firstOfFrame.get(`${leg}:${frame}`),
    (id) => blockStart.get(id),
    firstOfFile,
  );
  const start = startedAt ?? envelopes.find((e) => e.receivedAt > 0)?.receivedAt ?? 0;
  return envelopes.map((envelope: Envelope) => ({
    envelope,
    agentName: names.get(envelope.agent)?.name ?? envelope.agent,
    block: blockOf.get(envelope.seq),
    findings: findings.get(envelope.seq) ?? [],
    time: envelope.receivedAt > 0 ? Math.max(0, envelope.receivedAt - start) : 0,
  }));
}

/**
 * Findings by the envelope they belong to: their own envelope, else the first envelope of
 * their frame (as the timeline badges them), else the first envelope of their block, else
 * (a finding about the file or a whole leg) where `elsewhere` puts it.
 */
export function findingsByEnvelope(
  diagnostics: readonly Diagnostic[],
  firstOfFrame: (leg: number, frame: number) => number | undefined,
  firstOfBlock: (block: number) => number | undefined = () => undefined,
  elsewhere: (leg: number | undefined) => number | undefined = () => undefined,
): Map<number, Diagnostic[]> {
  const findings = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    const seq =
      d.at.envelope ??
      (d.at.frame !== undefined
        ? firstOfFrame(d.at.leg ?? 0, d.at.frame)
        : d.at.block !== undefined
          ? firstOfBlock(d.at.block)
          : elsewhere(d.at.leg));
    if (seq === undefined || seq < 0) continue;
    const list = findings.get(seq);
    if (list) list.push(d);
    else findings.set(seq, [d]);
  }
  return findings;
}
