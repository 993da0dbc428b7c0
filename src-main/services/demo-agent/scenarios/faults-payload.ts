import { serializeEnvelope } from '../../../../src-shared/envelope/budget';
import { KIND } from '../../../../src-shared/envelope/vocabulary';
import { htmlEscape } from '../../../../src-shared/dialects/legacy-xml/entities';
import { xmlStreamEscape } from '../../../../src-shared/dialects/legacy-xml/escaping';
import { dumpEvent } from '../api-dump';
import { sseEvent } from '../emit';
import { modelDumpJson, pyDumps, pyRepr, type PyValue } from '../python-json';
import { webResult } from './content';
import { deltas, singleAgentScenario, thoughtDeltas } from './scenario';
import { fault, rendered, wire, type ToolResultStep } from './faults-kit';

/*
 * Faults of the payloads: a tool call printed as Python repr, a retried call replaying a
 * block, an item of a type no one knows, broken XML.
 */

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
