import { isJsonObject } from '../../json/values';
import type { WireEvent } from '../provider/event-context';

/**
 * With the code execution tool, the API finishes (`STOP`) the chunk that asks for code to run
 * (its last part an `executableCode`), then streams the `codeExecutionResult` and the rest of
 * the answer under the same responseId, and finishes again (pydantic-ai's recording,
 * resources/fixtures/external/pydantic-ai/gemini-code-execution.crlf.sse). That STOP hands the
 * turn to the sandbox: the candidate goes on, and the STOP finishes it only if the stream ends
 * there. What is kept of it, to finish the candidate then. Its sources (the `groundingMetadata`
 * of a file search the code ran, pydantic-ai/gemini-file-search.crlf.sse) are shown at once,
 * as every chunk's are.
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
