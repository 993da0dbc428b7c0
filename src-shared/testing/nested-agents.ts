/**
 * A json-envelope stream whose agents nest as deep as it is long: agent n is a sub-agent of
 * agent n - 1 (its meta_init says so) and writes one small text block. What the memory soak
 * streams without end and the naming and `inspect` tests decode a few thousand levels of.
 */
export function nestedAgentEvents(n: number): string {
  const uuid = `agent-${n}`;
  const meta = JSON.stringify({
    format: 'json',
    agent_uuid: uuid,
    parent_agent_uuid: n === 0 ? null : `agent-${n - 1}`,
    model: 'm',
  });
  return (
    `data: ${JSON.stringify({ type: 'meta_init', agent: uuid, final: true, delta: meta })}\n\n` +
    `data: {"type":"text","agent":"${uuid}","final":false,"delta":"hi"}\n\n` +
    `data: {"type":"text","agent":"${uuid}","final":true,"delta":""}\n\n`
  );
}

/** `depth` nested agents, then [DONE]. */
export function nestedAgentsCapture(depth: number): string {
  let text = '';
  for (let n = 0; n < depth; n++) text += nestedAgentEvents(n);
  return `${text}data: [DONE]\n\n`;
}
