import { serializeEnvelope } from '../../../../src-shared/envelope/budget';
import { KIND } from '../../../../src-shared/envelope/vocabulary';
import { xmlStreamEscape } from '../../../../src-shared/dialects/legacy-xml/escaping';
import { dumpEvent } from '../api-dump';
import { sseEvent } from '../emit';
import { xmlAgentItem } from '../emit-xml-agent';
import { modelDumpJson } from '../python-json';
import type { ApiEvent, Step } from '../script';
import { completed, deltas, DONE, mainAgent, type Scenario, singleAgentScenario } from './scenario';
import { fault, inEveryFormat, wire, type ToolResultStep } from './faults-kit';

/*
 * Faults of the stream's framing: line breaks that reach the wire raw, an oversize data line,
 * a stream cut inside an event (ended or dropped), events after [DONE].
 */

/** JSON text with its escaped line breaks written raw again: a server that framed the text before escaping. */
function unescapeBreaks(json: string, breaks: 'LF' | 'CR'): string {
  return breaks === 'LF' ? json.replaceAll('\\n', '\n').replaceAll('\\r', '\r') : json.replaceAll('\\r', '\r');
}

/**
 * A text delta whose line breaks reach the wire raw. xml with a CR is exactly the upstream
 * formatter's output at HEAD (it escapes LF only); the other cases are older or buggy servers.
 */
function brokenTextDelta(agent: string, index: number, text: string, breaks: 'LF' | 'CR'): Step {
  const event: ApiEvent = { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
  return wire(`text delta with a raw ${breaks}`, {
    json: () =>
      `data: ${unescapeBreaks(serializeEnvelope({ type: KIND.text, agent, extras: {} }, false, text), breaks)}\n\n`,
    xml: () => `data: ${breaks === 'LF' ? text : xmlStreamEscape(text)}\n\n`,
    raw: () => `data: ${unescapeBreaks(modelDumpJson(dumpEvent(event)), breaks)}\n\n`,
  });
}

export const faultRawNewline = singleAgentScenario(
  fault('fault-raw-newline', {
    title: 'Fault: raw newline in a payload',
    summary:
      'Two text deltas reach the wire with raw LFs (as XML streams did before the server escaped them): one loses the text after the LF (ignored line), one holds a blank line that dispatches the event early.',
    demonstrates: {
      json: ['sse.ignored-line', 'sse.early-dispatch', 'json.invalid'],
      xml: ['sse.ignored-line', 'sse.early-dispatch'],
      raw: ['sse.ignored-line', 'sse.early-dispatch', 'json.invalid'],
    },
  }),
  (agent) => {
    const intro = 'The next two deltas keep raw newlines. ';
    const single = 'This line ends here\nand this part is lost. ';
    const blank = 'A paragraph\n\nand the next paragraph';
    const turn = agent.turn();
    const index = turn.partialText(deltas(intro));
    turn
      .inject(brokenTextDelta(agent.uuid, index, single, 'LF'))
      .inject(brokenTextDelta(agent.uuid, index, blank, 'LF'));
    turn.finishText(index, intro + single + blank).end('end_turn');
  },
);

export const faultRawCr = singleAgentScenario(
  fault('fault-raw-cr', {
    title: 'Fault: raw CR in a payload',
    summary:
      'A text delta with a Windows line ending: the xml formatter escapes LF but not CR (an upstream hole), so the SSE line ends at the CR and the rest is ignored.',
    demonstrates: {
      json: ['sse.ignored-line', 'json.invalid'],
      xml: ['sse.ignored-line'],
      raw: ['sse.ignored-line', 'json.invalid'],
    },
  }),
  (agent) => {
    const intro = 'A pasted Windows file follows. ';
    const crlf = 'First line\r\nsecond line, after a CRLF';
    const turn = agent.turn();
    const index = turn.partialText(deltas(intro));
    turn.inject(brokenTextDelta(agent.uuid, index, crlf, 'CR'));
    turn.finishText(index, intro + crlf).end('end_turn');
  },
);

function logDump(bytes: number): string {
  const lines: string[] = [];
  for (let n = 0, size = 0; size < bytes; n++) {
    const line = `2026-03-01T12:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')} INFO request ${1000 + n} served in ${(n * 7) % 50} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

export const faultOversizeLine = singleAgentScenario(
  fault('fault-oversize-line', {
    title: 'Fault: oversize line',
    summary:
      'A 5 KB tool result in one data: line. In json the server skipped the chunker (an unchunked envelope); xml and raw items are never chunked, so upstream sends such lines too.',
    demonstrates: {
      json: ['sse.oversize-line', 'envelope.over-budget'],
      xml: ['sse.oversize-line'],
      raw: ['sse.oversize-line'],
    },
  }),
  (agent) => {
    agent
      .turn()
      .text(deltas('Fetching the request log.'))
      .toolUse('toolu_demo_logs', 'read_logs', { lines: 80 })
      .end('tool_use');
    const logs = logDump(5 * 1024);
    agent.recordToolResult('toolu_demo_logs', logs);
    const step: ToolResultStep = {
      kind: 'tool_result',
      agent: agent.uuid,
      toolUseId: 'toolu_demo_logs',
      name: 'read_logs',
      content: logs,
      images: [],
    };
    agent.push(
      wire('unchunked 5 KB tool_result', {
        json: () =>
          sseEvent(
            serializeEnvelope(
              { type: KIND.tool_result, agent: agent.uuid, extras: { id: step.toolUseId, name: step.name } },
              true,
              logs,
            ),
          ),
        xml: () => sseEvent(xmlAgentItem(step, 'xml')),
        raw: () => sseEvent(xmlAgentItem(step, 'raw')),
      }),
    );
    agent.turn().text(deltas('The log shows 80 requests, all served in under 50 ms.')).end('end_turn');
  },
);

/** The start of an event (no blank line after it), then the connection ends. */
function truncatedRun(id: string, mode: 'end' | 'drop'): Scenario['build'] {
  return (ctx) => {
    const agent = mainAgent(ctx);
    const turn = agent.turn();
    const index = turn.partialText(deltas('The answer is coming in pieces, and then '));
    const tail = 'the connection drops mid-event';
    const event: ApiEvent = { type: 'content_block_delta', index, delta: { type: 'text_delta', text: tail } };
    const half = (text: string): string => text.slice(0, Math.floor(text.length / 2));
    turn.inject(
      wire(`${id}: half an event`, {
        json: () => half(sseEvent(serializeEnvelope({ type: KIND.text, agent: agent.uuid, extras: {} }, false, tail))),
        xml: () => half(sseEvent(tail)),
        raw: () => half(sseEvent(modelDumpJson(dumpEvent(event)))),
      }),
    );
    turn.inject({ kind: 'cut', mode });
    return { steps: agent.take() };
  };
}

export const faultTruncated: Scenario = {
  ...fault('fault-truncated', {
    title: 'Fault: truncated stream',
    summary: 'The response ends cleanly in the middle of an event: half a data: line, no blank line, no [DONE].',
    demonstrates: inEveryFormat(['sse.unterminated-event', 'stream.missing-done']),
  }),
  build: truncatedRun('fault-truncated', 'end'),
};

export const faultConnectionDrop: Scenario = {
  ...fault('fault-connection-drop', {
    title: 'Fault: connection dropped',
    summary:
      'The server closes the connection in the middle of an event without ending the HTTP response (no terminating chunk): the client gets half a data: line, then a network error.',
    demonstrates: inEveryFormat(['sse.unterminated-event', 'stream.missing-done']),
  }),
  build: truncatedRun('fault-connection-drop', 'drop'),
};

export const faultAfterDone: Scenario = {
  ...fault('fault-after-done', {
    title: 'Fault: events after [DONE]',
    summary:
      'A complete run and its [DONE], then another text block and a second [DONE]: a client stops reading at the first one.',
    demonstrates: inEveryFormat(['stream.after-done']),
  }),
  build(ctx) {
    const agent = mainAgent(ctx);
    agent.turn().text(deltas('This answer ends properly.')).end('end_turn');
    const { steps } = completed(agent);
    agent.turn().text(deltas('This text arrives after [DONE].')).end('end_turn');
    return { steps: [...steps, ...agent.take(), DONE] };
  },
};
