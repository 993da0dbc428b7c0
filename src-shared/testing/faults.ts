/**
 * Faults derived from the rules of docs/diagnostics.md and docs/protocols/upstream-protocol.md,
 * applied to clean upstream streams: each fault breaks one rule at one event, and the
 * decoder must report that rule at that event. A fault kind lists the events of a stream it
 * can break (its sites); the generator applies it at a few seeded sites of every clean stream
 * of its dialect. The diagnostics test counts faults generated, flagged and missed.
 */
import { JSON_EVENTS_FAULTS } from '../dialects/json-events/faults';
import { JSON_RPC_FAULTS } from '../dialects/json-rpc/faults';
import { AG_UI_FAULTS } from '../dialects/ag-ui/faults';
import { AI_SDK_FAULTS } from '../dialects/ai-sdk-ui/faults';
import { GEMINI_FAULTS } from '../dialects/gemini/faults';
import { OLLAMA_FAULTS } from '../dialects/ollama/faults';
import { OPENAI_CHAT_FAULTS } from '../dialects/openai-chat/faults';
import { seededRandom } from '../sse/rechunk';
import { type CleanStream, type FaultKind, type Fault, parse } from './faults-kit';
import { SSE, STREAM } from './faults-stream';
import { JSON_FAULTS, XML_FAULTS, RAW_FAULTS } from './faults-upstream';
import { RECONSTRUCT } from './faults-reconstruct';
import { PROVIDER_FAULTS } from './faults-provider';
import { INLINE_FAULTS, SEGMENT_FAULTS } from './faults-inline';

export type { CleanStream, Fault, Faulted, FaultKind } from './faults-kit';

export const FAULT_KINDS: readonly FaultKind[] = [
  ...SSE,
  ...STREAM,
  ...JSON_FAULTS,
  ...XML_FAULTS,
  ...RAW_FAULTS,
  ...RECONSTRUCT,
  ...PROVIDER_FAULTS,
  ...INLINE_FAULTS,
  ...SEGMENT_FAULTS,
  ...OPENAI_CHAT_FAULTS,
  ...JSON_RPC_FAULTS,
  ...AI_SDK_FAULTS,
  ...AG_UI_FAULTS,
  ...GEMINI_FAULTS,
  ...OLLAMA_FAULTS,
  ...JSON_EVENTS_FAULTS,
];

/**
 * The provider APIs name each event's type in an `event:` field, which their dialects detect
 * by: a faulted provider stream gets it back on every event whose data has a string type.
 */
function withEventFields(parts: (string | Uint8Array)[]): (string | Uint8Array)[] {
  return parts.map((part) => {
    if (typeof part !== 'string' || !part.startsWith('data: {')) return part;
    const type = parse(part.slice(6).split('\n')[0] ?? '')?.['type'];
    return typeof type === 'string' ? `event: ${type}\n${part}` : part;
  });
}

/**
 * A faulted line-framed stream: every event written `data: …` and a blank line is one line
 * instead. Parts given as bytes (a line cut without its ending) are kept as they are.
 */
function asLines(parts: (string | Uint8Array)[]): (string | Uint8Array)[] {
  return parts.map((part) => (typeof part === 'string' ? part.replace(/^data: (.*)\n\n/gm, '$1\n') : part));
}

/** Each fault kind at up to `perStream` seeded sites of every clean stream of its dialects. */
export function generateFaults(streams: readonly CleanStream[], seed: number, perStream = 3): Fault[] {
  const random = seededRandom(seed);
  const faults: Fault[] = [];
  for (const kind of FAULT_KINDS) {
    for (const stream of streams.filter((s) => kind.dialects.includes(s.dialect))) {
      const sites = kind.sites(stream.events);
      for (let n = 0; n < perStream && sites.length > 0; n++) {
        const [site] = sites.splice(Math.floor(random() * sites.length), 1);
        if (site === undefined) continue;
        const faulted = kind.apply(stream.events, site);
        faults.push({
          kind,
          stream: stream.name,
          site,
          faulted: stream.eventFields
            ? { ...faulted, parts: withEventFields(faulted.parts) }
            : stream.lines
              ? { ...faulted, parts: asLines(faulted.parts) }
              : faulted,
        });
      }
    }
  }
  return faults;
}
