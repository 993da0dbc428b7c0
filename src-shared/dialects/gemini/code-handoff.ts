import { isJsonObject } from '../../json/values';
import type { ProviderEventContext, WireEvent } from '../provider/event-context';
import { emitSources, type SourcesOf } from './grounding';

/**
 * With the code execution tool, the API finishes (`STOP`) the chunk that asks for code to run
 * (its last part an `executableCode`), then streams the `codeExecutionResult` and the rest of
 * the answer under the same responseId, and finishes again (pydantic-ai's recording,
 * resources/fixtures/external/pydantic-ai/gemini-code-execution.crlf.sse). That STOP hands the
 * turn to the sandbox: the candidate goes on, and the STOP finishes it only if the stream ends
 * there. What is kept of it, to finish the candidate then. Its sources (the `groundingMetadata`
 * of a file search the code ran, pydantic-ai/gemini-file-search.crlf.sse) are shown at once.
 */
export interface CodeHandoff {
  chunk: WireEvent;
  /** The candidate's object in that chunk. */
  value: WireEvent;
  reason: string;
  /** The number of chunks read when it came: the stream ended on it if no chunk followed. */
  chunks: number;
}

/** Whether a finishReason on a candidate's chunk with these parts hands over to the code it asks to run. */
export function handsOffToCode(parts: unknown, reason: string): boolean {
  if (reason !== 'STOP' || !Array.isArray(parts)) return false;
  const last: unknown = parts.filter((part) => !isJsonObject(part) || part['text'] !== '').at(-1);
  return isJsonObject(last) && isJsonObject(last['executableCode']);
}

/** The hand-off, kept on its candidate (to finish it if the stream ends there), and the sources its chunk gave. */
export function handOff(
  at: ProviderEventContext,
  candidate: SourcesOf & { handoff: CodeHandoff | undefined },
  handoff: CodeHandoff,
): void {
  candidate.handoff = { ...handoff, value: withoutSources(handoff.value) };
  emitSources(at, handoff.value, candidate);
}

/** The hand-off's candidate object without the sources handOff showed, to finish the candidate with it. */
function withoutSources({ groundingMetadata: _g, citationMetadata: _c, ...value }: WireEvent): WireEvent {
  return value;
}
