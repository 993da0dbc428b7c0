import type { RuleId } from '../../../../src-shared/diagnostics/rules';
import { serializeEnvelope } from '../../../../src-shared/envelope/budget';
import { KIND } from '../../../../src-shared/envelope/vocabulary';
import { htmlEscape } from '../../../../src-shared/dialects/legacy-xml/entities';
import { xmlStreamEscape } from '../../../../src-shared/dialects/legacy-xml/escaping';
import { dumpEvent } from '../api-dump';
import { createEmitter, sseEvent } from '../emit';
import { xmlAgentItem } from '../emit-xml-agent';
import { modelDumpJson, pyDumps, pyRepr, type PyValue } from '../python-json';
import type { ApiEvent, Format, Step } from '../script';
import { webResult } from './content';
import {
  completed,
  deltas,
  DONE,
  mainAgent,
  type Scenario,
  type ScenarioInfo,
  singleAgentScenario,
  thoughtDeltas,
} from './scenario';

/**
 * Streams with one known defect each, so every diagnostic of the inspector can be shown on
 * a live server. Where the upstream itself produces the defect (CR in xml text, unchunked
 * xml/raw items, a retried call, a paused-then-resumed agent) the bytes are the formatter's;
 * elsewhere they are hand-made and labelled.
 */

type ToolResultStep = Extract<Step, { kind: 'tool_result' }>;

/** A fault scenario is asked for by its id: the id is its keyword and its sample prompt. */
function fault(
  id: string,
  info: Pick<ScenarioInfo, 'title' | 'summary' | 'demonstrates'>,
  moreKeywords: readonly string[] = [],
): ScenarioInfo {
  return { id, ...info, keywords: [id, ...moreKeywords], samplePrompt: id };
}

/** The same diagnostics in every format. */
function inEveryFormat(rules: readonly RuleId[]): Record<Format, readonly RuleId[]> {
  return { json: rules, xml: rules, raw: rules };
}

function wire(label: string, render: Record<Format, () => string>): Step {
  return { kind: 'wire', label, render: (format) => render[format]() };
}

/** Steps rendered by a fresh formatter of `format`, framed as the router frames them. */
function rendered(format: Format, steps: readonly Step[]): string {
  const emitter = createEmitter(format);
  return steps
    .flatMap((s) => emitter.emit(s))
    .map((op) => (op.op === 'event' ? sseEvent(op.data) : op.op === 'bytes' ? op.text : ''))
    .join('');
}

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

export const faultMalformedJson = singleAgentScenario(
  fault('fault-malformed-json', {
    title: 'Fault: malformed JSON',
    summary:
      'A tool call printed with Python repr instead of json.dumps (single quotes, True): an invalid JSON line in json and raw, an attribute that does not parse in xml.',
    demonstrates: { json: ['json.invalid'], xml: ['xml.attr-json'], raw: ['json.invalid'] },
  }),
  (agent) => {
    const input = { a: 12, b: 7 };
    const id = 'toolu_demo_malformed';
    const turn = agent.turn().text(deltas('Multiplying with a tool.'));
    const index = turn.silentBlock({ type: 'tool_use', id, name: 'multiply', input });
    const json = pyDumps(input, { ensureAscii: false });
    const start = dumpEvent({
      type: 'content_block_start',
      index,
      block: { type: 'tool_use', id, name: 'multiply', input: {} },
    });
    const delta = dumpEvent({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: json },
    });
    const stop = dumpEvent({
      type: 'content_block_stop',
      index,
      block: { type: 'tool_use', id, name: 'multiply', input },
    });
    const envelope: PyValue = {
      type: KIND.tool_call,
      agent: agent.uuid,
      final: true,
      delta: json,
      id,
      name: 'multiply',
    };
    turn.inject(
      wire('tool call printed with Python repr', {
        json: () => sseEvent(pyRepr(envelope)),
        xml: () =>
          sseEvent(
            xmlStreamEscape(
              `<content-block-tool_call id="${id}" name="multiply" arguments="${htmlEscape(pyRepr(input))}"></content-block-tool_call>`,
            ),
          ),
        raw: () => [start, delta, stop].map((e, i) => sseEvent(i === 1 ? pyRepr(e) : modelDumpJson(e))).join(''),
      }),
    );
    turn.end('tool_use');
    agent.toolResult(id, 'multiply', '84');
    agent.turn().text(deltas('12 × 7 = 84.')).end('end_turn');
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

export const faultRetryReplay = singleAgentScenario(
  fault(
    'fault-retry-replay',
    {
      title: 'Fault: retried API call replays a block',
      summary:
        'A retryable API failure mid-answer: the agent re-runs the whole call on the same stream, so a partial text block (never closed) is followed by the same block from its start.',
      demonstrates: { json: ['block.restarted'], xml: ['block.restarted', 'xml.unclosed'], raw: ['block.restarted'] },
    },
    ['retry'],
  ),
  (agent) => {
    const answer = deltas(
      'I need to calculate 5 + (10 * 2) following the order of operations: 10 * 2 = 20, then 5 + 20 = 25.',
    );
    const failed = agent.turn();
    failed.partialText(answer.slice(0, 4));
    failed.abandon();
    agent.turn().text(answer).end('end_turn');
  },
);

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

export const faultUnknownType = singleAgentScenario(
  fault('fault-unknown-type', {
    title: 'Fault: unknown type',
    summary:
      'An item outside the vocabulary: a progress_note envelope, a <content-block-todo> tag, an unknown Anthropic event.',
    demonstrates: { json: ['envelope.unknown-type'], xml: ['xml.unknown-tag'], raw: ['raw.unknown-event'] },
  }),
  (agent) => {
    agent.turn().text(deltas('Planning the work first.')).end('end_turn');
    const todos = {
      todos: [
        { content: 'Collect the figures', status: 'completed' },
        { content: 'Write the summary', status: 'in_progress' },
      ],
    };
    agent.push(
      wire('item of an unknown type', {
        json: () =>
          sseEvent(
            serializeEnvelope(
              { type: 'progress_note', agent: agent.uuid, extras: {} },
              true,
              pyDumps(todos, { compact: true }),
            ),
          ),
        xml: () => sseEvent(`<content-block-todo><![CDATA[${pyDumps(todos)}]]></content-block-todo>`),
        raw: () => sseEvent(modelDumpJson({ type: 'message_annotation', annotation: { kind: 'todo', ...todos } })),
      }),
    );
  },
);

export const faultBadXml = singleAgentScenario(
  fault('fault-bad-xml', {
    title: 'Fault: bad XML entity, mismatched tags and broken CDATA',
    summary:
      'XML items with an unknown entity (&chips;), a closing tag with no block open, a tool result closed by the wrong tag (xml and raw), and a web search result holding "]]>", which upstream leaves unprotected in its CDATA (xml); the json stream is clean.',
    demonstrates: {
      xml: ['xml.bad-entity', 'xml.mismatched', 'xml.broken-cdata'],
      raw: ['xml.bad-entity', 'xml.mismatched'],
    },
  }),
  (agent) => {
    const turn = agent.turn().thinking(thoughtDeltas('Checking the menu.'));
    // A closing tag with no block open (a formatter that closed the block twice).
    turn.inject(
      wire('stray </content-block-thinking>', {
        json: () => '',
        raw: () => '',
        xml: () => sseEvent('</content-block-thinking>'),
      }),
    );
    turn
      .serverToolUse('srvtoolu_demo_menu', 'web_search', { query: 'fish & chips price' })
      .serverToolResult('web_search_tool_result', 'srvtoolu_demo_menu', [
        webResult('Menu ]]> prices', 'https://example.com/menu', null),
      ]);
    turn
      .toolUse('toolu_demo_lookup_1', 'lookup', { dish: 'fish & chips' })
      .toolUse('toolu_demo_lookup_2', 'lookup', { dish: 'mushy peas' })
      .end('tool_use');
    const results = [
      {
        id: 'toolu_demo_lookup_1',
        content: 'Fish & chips: 12 €',
        bad: (open: string) =>
          `${open.replace('name="lookup"', 'name="fish &chips;"')}<![CDATA[Fish & chips: 12 €]]></content-block-tool_result>`,
      },
      {
        id: 'toolu_demo_lookup_2',
        content: 'No such dish',
        bad: (open: string) => `${open}<![CDATA[No such dish]]></content-block-tool_call>`,
      },
    ];
    for (const r of results) {
      agent.recordToolResult(r.id, r.content);
      const step: ToolResultStep = {
        kind: 'tool_result',
        agent: agent.uuid,
        toolUseId: r.id,
        name: 'lookup',
        content: r.content,
        images: [],
      };
      const open = `<content-block-tool_result id="${r.id}" name="lookup">`;
      agent.push(
        wire(`tool_result ${r.id} with broken XML`, {
          json: () => rendered('json', [step]),
          xml: () => sseEvent(r.bad(open)),
          raw: () => sseEvent(r.bad(open)),
        }),
      );
    }
    agent.turn().text(deltas('Fish & chips costs 12 €.')).end('end_turn');
  },
);

export const FAULT_SCENARIOS: readonly Scenario[] = [
  faultRawNewline,
  faultRawCr,
  faultOversizeLine,
  faultMalformedJson,
  faultTruncated,
  faultConnectionDrop,
  faultRetryReplay,
  faultAfterDone,
  faultUnknownType,
  faultBadXml,
];
