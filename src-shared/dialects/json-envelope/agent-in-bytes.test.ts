import { describe, expect, it } from 'vitest';
import { nameAgents, UNATTRIBUTED } from '../../agents/names';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { agentNamedIn } from './agent-in-bytes';

/**
 * Rows of events that did not decode belong to the agent their bytes name, or to no agent:
 * never to a root agent "main 2" made up for them.
 */

const A = '0b6c8804-e6f9-4c9d-ba2f-b8a95a7492b8';
const meta = JSON.stringify({
  type: 'meta_init',
  agent: A,
  final: true,
  delta: JSON.stringify({ format: 'json', agent_uuid: A, parent_agent_uuid: null }),
});
const text = (delta: string, final = false) => JSON.stringify({ type: 'text', agent: A, final, delta });

describe('the agent of an event that does not decode', () => {
  it('is the one its bytes name: a delta cut by a raw newline stays with its agent', () => {
    const stream = [
      `data: ${meta}\n\n`,
      // The line break reaches the wire raw: the event ends inside its JSON.
      `data: ${text('This line ends here\nand this part is lost. ').replace('\\n', '\n')}\n\n`,
      `data: ${text('', true)}\n\n`,
      'data: [DONE]\n\n',
    ].join('');
    const { envelopes, agents } = decodeBytes(encodeUtf8(stream));
    const undecoded = envelopes.filter((e) => e.control === 'undecoded');
    expect(undecoded).toHaveLength(1);
    expect(new Set(envelopes.map((e) => e.agent))).toEqual(new Set([A]));
    const names = nameAgents(
      agents,
      envelopes.map((e) => e.agent),
    );
    expect([...names.values()].map((n) => n.name)).toEqual(['main']);
  });

  it('must not: a line that names no agent belongs to none, named unattributed, never "main 2"', () => {
    const stream = [`data: ${meta}\n\n`, 'data: hello, not JSON\n\n', `data: ${text('hi', true)}\n\n`].join('');
    const { envelopes, agents } = decodeBytes(encodeUtf8(stream));
    expect(envelopes.find((e) => e.control === 'undecoded')?.agent).toBe('');
    const names = nameAgents(
      agents,
      envelopes.map((e) => e.agent),
    );
    expect([...names.values()].map((n) => n.name)).toEqual(['main', UNATTRIBUTED]);
  });

  it('is not read from a delta that quotes an agent field', () => {
    expect(agentNamedIn(String.raw`{"type":"text","delta":"say \"agent\":\"x\" here`)).toBeUndefined();
    expect(agentNamedIn(`{"type":"text","agent": "a\\u00e9","delta":"cut`)).toBe('aé');
    expect(agentNamedIn('{"agent":""')).toBeUndefined();
  });
});
