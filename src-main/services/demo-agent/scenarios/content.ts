import { PyModel, type PyValue } from '../python-json';
import { CHART_PNG_BASE64, CHART_PNG_DATA_URI } from '../sample-image';
import type { Citation } from '../script';
import { seededBase64 } from '../seeded';
import type { ScriptedAgent } from '../scripted-agent';
import { deltas, type Scenario, singleAgentScenario, thoughtDeltas } from './scenario';

/** The scenarios that show what a healthy stream carries, one feature each, plus the tour. */

/** One web search result as the SDK returns it. */
export function webResult(title: string, url: string, pageAge: string | null): PyModel {
  return new PyModel('BetaWebSearchResultBlock', {
    encrypted_content: seededBase64(96, 'web', url),
    page_age: pageAge,
    title,
    type: 'web_search_result',
    url,
  });
}

const EIFFEL_RESULTS = [
  webResult('Eiffel Tower – facts & figures', 'https://example.com/eiffel/facts?lang=en&src=demo', '3 days ago'),
  webResult('Why the tower "grows" in summer', 'https://example.org/physics/thermal-expansion', null),
];

const eiffelCitation: Citation = {
  type: 'web_search_result_location',
  cited_text: 'The tower is 330 metres (1,083 ft) tall, about the same height as an 81-storey building.',
  url: 'https://example.com/eiffel/facts?lang=en&src=demo',
  title: 'Eiffel Tower – facts & figures',
  encrypted_index: seededBase64(40, 'index', 'eiffel'),
};

/** A rendered chart: text and image content blocks, streamed as tool_result + tool_result_image. */
function chartResult(agent: ScriptedAgent, toolUseId: string, caption: string): void {
  const content: PyValue = [
    { type: 'text', text: caption },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: CHART_PNG_BASE64 } },
  ];
  agent.toolResult(toolUseId, 'render_chart', content, [{ src: CHART_PNG_DATA_URI, media_type: 'image/png' }]);
}

export const tour = singleAgentScenario(
  {
    id: 'tour',
    title: 'Tour',
    summary:
      'Thinking, text, a web search with a cited answer, two client tools (one returns an image), a final answer and meta_final.',
    keywords: ['tour', 'demo', 'everything'],
    samplePrompt: 'Show me what an agent stream can carry.',
  },
  (agent) => {
    agent
      .turn()
      .thinking(
        thoughtDeltas(
          'The user wants a tour. I will search for a fact, cite it, convert the number with a tool and draw a chart of both values.',
        ),
      )
      .text(deltas("Here's a quick tour of what an agent stream carries. First, a web search."))
      .serverToolUse('srvtoolu_demo_tour_search', 'web_search', { query: 'Eiffel Tower height' })
      .serverToolResult('web_search_tool_result', 'srvtoolu_demo_tour_search', EIFFEL_RESULTS)
      .text(deltas('The Eiffel Tower is 330 metres tall'), [eiffelCitation])
      .text(deltas('. Let me convert that to feet and chart both numbers.'))
      .toolUse('toolu_demo_tour_multiply', 'multiply', { a: 330, b: 3.28084 })
      .toolUse('toolu_demo_tour_chart', 'render_chart', { values: [330, 1083], labels: ['metres', 'feet'] })
      .end('tool_use');
    agent.toolResult('toolu_demo_tour_multiply', 'multiply', '1082.6772');
    chartResult(agent, 'toolu_demo_tour_chart', 'Rendered a bar chart of [330, 1083] (48×32 PNG).');
    agent
      .turn()
      .text(
        deltas(
          '330 m is about **1,083 ft**.\n\nThe chart compares both numbers; the stream above also shows thinking, a server tool, a citation and two client tools.',
        ),
      )
      .end('end_turn');
  },
);

export const thinking = singleAgentScenario(
  {
    id: 'thinking',
    title: 'Extended thinking',
    summary: 'A thinking block streamed delta by delta, then the answer.',
    keywords: ['think', 'thinking', 'reason'],
    samplePrompt: 'Think it through: what is 17 × 24?',
  },
  (agent) => {
    agent
      .turn()
      .thinking(
        thoughtDeltas(
          'The user wants 17 × 24. Split 24 into 20 + 4: 17 × 20 = 340 and 17 × 4 = 68, so 340 + 68 = 408. Check: 408 / 24 = 17. Correct.',
        ),
      )
      .text(deltas('17 × 24 = **408**.\n\nI split 24 into 20 + 4: 17 × 20 = 340 and 17 × 4 = 68, which add up to 408.'))
      .end('end_turn');
  },
);

export const citations = singleAgentScenario(
  {
    id: 'citations',
    title: 'Citations',
    summary: 'Text blocks citing a document by characters, a PDF by pages, and a web search result.',
    keywords: ['citation', 'citations', 'cite', 'source', 'sources'],
    samplePrompt: 'How tall is the Eiffel Tower? Cite your sources.',
  },
  (agent) => {
    agent
      .turn()
      .text(deltas('According to the sources, '))
      .text(deltas('the tower is 330 metres tall'), [
        {
          type: 'char_location',
          cited_text: 'The Eiffel Tower stands 330 metres high.',
          document_index: 0,
          document_title: 'Paris "Landmarks" & Facts',
          start_char_index: 120,
          end_char_index: 160,
        },
      ])
      .text(deltas(', it was completed in 1889'), [
        {
          type: 'page_location',
          cited_text: 'Construction finished in March 1889, in time for the World Fair.',
          document_index: 1,
          document_title: 'Engineering History (PDF)',
          start_page_number: 12,
          end_page_number: 13,
        },
      ])
      .text(deltas(' and it is repainted every seven years'), [
        {
          type: 'web_search_result_location',
          cited_text: 'The tower is repainted every 7 years with 60 tonnes of paint.',
          url: 'https://example.com/eiffel/maintenance?q=paint&lang=en',
          title: 'Maintenance <FAQ>',
          encrypted_index: seededBase64(40, 'index', 'paint'),
        },
      ])
      .text(deltas('.'))
      .end('end_turn');
  },
);

export const clientTools = singleAgentScenario(
  {
    id: 'client-tools',
    title: 'Client tools',
    summary: 'Three API turns: tool calls executed by the backend, each result streamed before the next turn.',
    keywords: ['tool', 'tools', 'calculate', 'compute'],
    samplePrompt: 'Calculate 5 + (10 * 2) with your tools.',
  },
  (agent) => {
    agent
      .turn()
      .text(deltas('I need to calculate 5 + (10 * 2) following the order of operations: multiplication first.'))
      .toolUse('toolu_demo_multiply', 'multiply', { a: 10, b: 2 })
      .end('tool_use');
    agent.toolResult('toolu_demo_multiply', 'multiply', '20');
    agent.turn().text(deltas('Now the addition.')).toolUse('toolu_demo_add', 'add', { a: 5, b: 20 }).end('tool_use');
    agent.toolResult('toolu_demo_add', 'add', '25');
    agent.turn().text(deltas('The answer is **25**.\n\n- 10 * 2 = 20\n- 5 + 20 = 25')).end('end_turn');
  },
);

export const serverTools = singleAgentScenario(
  {
    id: 'server-tools',
    title: 'Server tools',
    summary:
      'Anthropic-executed tools: a web search and a code execution, with their results (Python reprs, as the upstream prints them).',
    keywords: ['search', 'web', 'server', 'execute', 'execution'],
    samplePrompt: 'Search the web for the Eiffel Tower and check the sandbox Node version.',
  },
  (agent) => {
    agent
      .turn()
      .text(deltas('Let me search for that.'))
      .serverToolUse('srvtoolu_demo_search', 'web_search', { query: 'Eiffel Tower height' })
      .serverToolResult('web_search_tool_result', 'srvtoolu_demo_search', EIFFEL_RESULTS)
      .text(deltas('Found it. Now a quick check in the sandbox.'))
      .serverToolUse('srvtoolu_demo_bash', 'bash_code_execution', { command: "node --version && echo 'ok'" })
      .serverToolResult(
        'bash_code_execution_tool_result',
        'srvtoolu_demo_bash',
        new PyModel('BetaBashCodeExecutionResultBlock', {
          content: [],
          return_code: 0,
          stderr: '',
          stdout: 'v22.11.0\nok\n',
          type: 'bash_code_execution_result',
        }),
      )
      .text(deltas('The Eiffel Tower is 330 m tall, and the sandbox runs Node v22.11.0.'))
      .end('end_turn');
  },
);

export const multimodal = singleAgentScenario(
  {
    id: 'multimodal',
    title: 'Multimodal tool result',
    summary:
      'A tool returns text and a PNG image (as a data: URI): tool_result, tool_result_image, then the closing tool_result.',
    keywords: ['image', 'chart', 'picture', 'multimodal'],
    samplePrompt: 'Render a chart of 12, 7 and 26.',
  },
  (agent) => {
    agent
      .turn()
      .text(deltas("I'll render that as a bar chart."))
      .toolUse('toolu_demo_chart', 'render_chart', { values: [12, 7, 26], title: 'Demo values' })
      .end('tool_use');
    chartResult(agent, 'toolu_demo_chart', 'Rendered a bar chart of [12, 7, 26] (48×32 PNG).');
    agent.turn().text(deltas('Here is the chart: the third bar (26) is the tallest.')).end('end_turn');
  },
);

export const files = singleAgentScenario(
  {
    id: 'files',
    title: 'Generated files',
    summary: 'Code execution writes a file; the run ends with meta_files listing it, then meta_final.',
    keywords: ['file', 'files', 'csv'],
    samplePrompt: 'Create a CSV report with code execution.',
  },
  (agent) => {
    const fileId = 'file_011CDemoReport00000001';
    agent
      .turn()
      .text(deltas("I'll generate the report in the sandbox."))
      .serverToolUse('srvtoolu_demo_create', 'text_editor_code_execution', {
        command: 'create',
        path: '/tmp/report.py',
        file_text:
          "import csv\n\nrows = [('city', 'height_m'), ('Paris', 330), ('Dubai', 828)]\nwith open('report.csv', 'w', newline='') as f:\n    csv.writer(f).writerows(rows)\nprint(f\"Wrote {len(rows)} rows to report.csv\")\n",
      })
      .serverToolResult(
        'text_editor_code_execution_tool_result',
        'srvtoolu_demo_create',
        new PyModel('BetaTextEditorCodeExecutionCreateResultBlock', {
          is_file_update: false,
          type: 'text_editor_code_execution_create_result',
        }),
      )
      .serverToolUse('srvtoolu_demo_run', 'bash_code_execution', {
        command: 'cd /tmp && python report.py && cp report.csv $OUTPUT_DIR/report.csv',
      })
      .serverToolResult(
        'bash_code_execution_tool_result',
        'srvtoolu_demo_run',
        new PyModel('BetaBashCodeExecutionResultBlock', {
          content: [
            new PyModel('BetaBashCodeExecutionOutputBlock', { file_id: fileId, type: 'bash_code_execution_output' }),
          ],
          return_code: 0,
          stderr: '',
          stdout: 'Wrote 3 rows to report.csv\n',
          type: 'bash_code_execution_result',
        }),
      )
      .text(deltas('Done: `report.csv` is attached (3 rows).'))
      .end('end_turn');
  },
);

export const CONTENT_SCENARIOS: readonly Scenario[] = [
  tour,
  thinking,
  citations,
  clientTools,
  serverTools,
  multimodal,
  files,
];
