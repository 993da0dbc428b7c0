/**
 * The agent an event names in its bytes when the event does not decode: a line cut by a raw
 * newline (`data: {"type":"text","agent":"1f25…","final":false,"delta":"This line ends here`)
 * or an object broken further on still says whose it was. Its row then belongs to that agent,
 * not to an agent invented for what did not decode.
 *
 * The first `"agent": "…"` of the data is taken. A delta that quotes such text holds it
 * escaped (`\"agent\":\"…\"`), which this does not match. The pattern's alternatives never
 * overlap, so the scan is linear in the data's length.
 */
const AGENT_FIELD = /"agent"\s*:\s*"((?:[^"\\\n]|\\.){1,256})"/;

/** The agent the data names, or undefined when it names none. */
export function agentNamedIn(data: string): string | undefined {
  const match = AGENT_FIELD.exec(data);
  if (!match) return undefined;
  try {
    const agent: unknown = JSON.parse(`"${match[1]}"`);
    return typeof agent === 'string' && agent !== '' ? agent : undefined;
  } catch {
    return undefined;
  }
}
