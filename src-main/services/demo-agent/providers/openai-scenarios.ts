import { APPROVAL_REQUEST, COMPUTER_CALL } from './openai-answers';
import { MODEL, ResponseScript, usage } from './openai-response-script';
import type { ProviderScenario } from './types';

/**
 * Scripted OpenAI Responses streams (docs/protocols/provider-events.md): every event family,
 * sequence numbers in order, a failed, an incomplete and an errored response, a cut stream
 * and types this version does not know.
 */

const TEXT = ['Paris is the capital ', 'of France.', ' See the atlas.'];

export const OPENAI_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text-annotations',
    title: 'Text with citations',
    summary: 'Output text with url, file, container-file and file-path annotations; completes with usage.',
    events: new ResponseScript('resp_demo_text')
      .start()
      .message(0, 'msg_demo_text', TEXT, [
        {
          type: 'url_citation',
          url: 'https://atlas.example/france',
          title: 'Atlas: France',
          start_index: 0,
          end_index: 31,
        },
        { type: 'file_citation', file_id: 'file-demo-atlas', filename: 'atlas.pdf', index: 31 },
        {
          type: 'container_file_citation',
          container_id: 'cntr_demo',
          file_id: 'cfile_demo',
          filename: 'notes.txt',
          start_index: 32,
          end_index: 46,
        },
        { type: 'file_path', file_id: 'file-demo-chart', index: 46 },
      ])
      .complete(usage(220, 19)),
  },
  {
    id: 'reasoning-function',
    title: 'Reasoning and a function call',
    summary: 'A reasoning item with a summary and reasoning text, then a function call whose arguments stream.',
    events: new ResponseScript('resp_demo_fn')
      .start()
      .tool(
        0,
        { id: 'rs_demo', type: 'reasoning', summary: [] },
        { summary: [{ type: 'summary_text', text: 'Need the weather.' }] },
        [
          ['response.reasoning_summary_part.added', { summary_index: 0, part: { type: 'summary_text', text: '' } }],
          ['response.reasoning_summary_text.delta', { summary_index: 0, delta: 'Need the ' }],
          ['response.reasoning_summary_text.delta', { summary_index: 0, delta: 'weather.' }],
          ['response.reasoning_summary_text.done', { summary_index: 0, text: 'Need the weather.' }],
          [
            'response.reasoning_summary_part.done',
            { summary_index: 0, part: { type: 'summary_text', text: 'Need the weather.' } },
          ],
          ['response.content_part.added', { content_index: 0, part: { type: 'reasoning_text', text: '' } }],
          [
            'response.reasoning_text.delta',
            { content_index: 0, delta: 'The user wants Paris weather; call get_weather.' },
          ],
          [
            'response.reasoning_text.done',
            { content_index: 0, text: 'The user wants Paris weather; call get_weather.' },
          ],
          [
            'response.content_part.done',
            {
              content_index: 0,
              part: { type: 'reasoning_text', text: 'The user wants Paris weather; call get_weather.' },
            },
          ],
        ],
      )
      .tool(
        1,
        {
          id: 'fc_demo',
          type: 'function_call',
          status: 'in_progress',
          call_id: 'call_demo_weather',
          name: 'get_weather',
          arguments: '',
        },
        { status: 'completed', arguments: '{"city":"Paris","unit":"celsius"}' },
        [
          ['response.function_call_arguments.delta', { delta: '{"city":"Pa' }],
          ['response.function_call_arguments.delta', { delta: 'ris","unit":"celsius"}' }],
          ['response.function_call_arguments.done', { arguments: '{"city":"Paris","unit":"celsius"}' }],
        ],
      )
      .complete(usage(310, 64, 40)),
  },
  {
    id: 'builtin-tools',
    title: 'Built-in, MCP and custom tools',
    summary:
      'Web search, file search, code interpreter (code streams), image generation (partial images), MCP tools list, MCP call, approval request and a custom tool, each with its status phases.',
    events: new ResponseScript('resp_demo_tools')
      .start()
      .tool(
        0,
        { id: 'ws_demo', type: 'web_search_call', status: 'in_progress' },
        { status: 'completed', action: { type: 'search', query: 'paris weather' } },
        [
          ['response.web_search_call.in_progress', {}],
          ['response.web_search_call.searching', {}],
          ['response.web_search_call.completed', {}],
        ],
      )
      .tool(
        1,
        { id: 'fs_demo', type: 'file_search_call', status: 'in_progress', queries: [] },
        {
          status: 'completed',
          queries: ['umbrella policy'],
          results: [{ file_id: 'file-demo-policy', filename: 'policy.md', score: 0.92, text: 'Carry an umbrella.' }],
        },
        [
          ['response.file_search_call.in_progress', {}],
          ['response.file_search_call.searching', {}],
          ['response.file_search_call.completed', {}],
        ],
      )
      .tool(
        2,
        { id: 'ci_demo', type: 'code_interpreter_call', status: 'in_progress', container_id: 'cntr_demo', code: '' },
        { status: 'completed', code: 'print(6 * 7)', outputs: [{ type: 'logs', logs: '42\n' }] },
        [
          ['response.code_interpreter_call.in_progress', {}],
          ['response.code_interpreter_call_code.delta', { delta: 'print(6 ' }],
          ['response.code_interpreter_call_code.delta', { delta: '* 7)' }],
          ['response.code_interpreter_call_code.done', { code: 'print(6 * 7)' }],
          ['response.code_interpreter_call.interpreting', {}],
          ['response.code_interpreter_call.completed', {}],
        ],
      )
      .tool(
        3,
        { id: 'ig_demo', type: 'image_generation_call', status: 'in_progress' },
        {
          status: 'completed',
          output_format: 'png',
          revised_prompt: 'a red dot',
          result: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
        },
        [
          ['response.image_generation_call.in_progress', {}],
          ['response.image_generation_call.generating', {}],
          [
            'response.image_generation_call.partial_image',
            {
              partial_image_index: 0,
              partial_image_b64:
                'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
            },
          ],
          ['response.image_generation_call.completed', {}],
        ],
      )
      .tool(
        4,
        { id: 'mcpl_demo', type: 'mcp_list_tools', server_label: 'calendar', tools: [] },
        { tools: [{ name: 'list_events', input_schema: { type: 'object' } }] },
        [
          ['response.mcp_list_tools.in_progress', {}],
          ['response.mcp_list_tools.completed', {}],
        ],
      )
      .tool(
        5,
        { id: 'mcp_demo', type: 'mcp_call', server_label: 'calendar', name: 'list_events', arguments: '' },
        { arguments: '{"day":"today"}', output: '09:00 stand-up' },
        [
          ['response.mcp_call.in_progress', {}],
          ['response.mcp_call_arguments.delta', { delta: '{"day":' }],
          ['response.mcp_call_arguments.delta', { delta: '"today"}' }],
          ['response.mcp_call_arguments.done', { arguments: '{"day":"today"}' }],
          ['response.mcp_call.completed', {}],
        ],
      )
      .tool(
        6,
        {
          id: 'mcpr_demo',
          type: 'mcp_approval_request',
          server_label: 'calendar',
          name: 'delete_event',
          arguments: '{"id":"evt_1"}',
        },
        {},
        [],
      )
      .tool(
        7,
        { id: 'ctc_demo', type: 'custom_tool_call', call_id: 'call_demo_sql', name: 'run_sql', input: '' },
        { input: 'SELECT 1;' },
        [
          ['response.custom_tool_call_input.delta', { delta: 'SELECT ' }],
          ['response.custom_tool_call_input.delta', { delta: '1;' }],
          ['response.custom_tool_call_input.done', { input: 'SELECT 1;' }],
        ],
      )
      .message(8, 'msg_demo_tools', ['Sunny, 21 °C. Carry an umbrella anyway.'])
      .complete(usage(900, 120)),
  },
  {
    id: 'function-answered',
    title: 'Function call, answered',
    summary:
      'What a request continuing a response with a function_call_output gets (previous_response_id): the answer, from the output.',
    events: new ResponseScript('resp_demo_answered')
      .start()
      .message(0, 'msg_demo_answered', ['Paris: sunny, ', '21 °C.'])
      .complete(usage(96, 9)),
  },
  {
    id: 'mcp-approval',
    title: 'An MCP call that needs approval',
    summary:
      'The MCP server’s delete_event needs the user’s approval: the response completes with an mcp_approval_request, and the run waits for the answer.',
    events: new ResponseScript('resp_demo_approval')
      .start()
      .tool(
        0,
        { id: 'mcpl_demo_approval', type: 'mcp_list_tools', server_label: 'calendar', tools: [] },
        { tools: [{ name: 'delete_event', input_schema: { type: 'object' } }] },
        [
          ['response.mcp_list_tools.in_progress', {}],
          ['response.mcp_list_tools.completed', {}],
        ],
      )
      .tool(1, { ...APPROVAL_REQUEST }, {}, [])
      .complete(usage(180, 22)),
  },
  {
    id: 'mcp-approved',
    title: 'MCP call, approved',
    summary:
      'What a request continuing the response with an approving mcp_approval_response gets: the MCP call runs, then the answer.',
    events: new ResponseScript('resp_demo_approved')
      .start()
      .tool(
        0,
        { id: 'mcp_demo_approved', type: 'mcp_call', server_label: 'calendar', name: 'delete_event', arguments: '' },
        { arguments: APPROVAL_REQUEST.arguments, output: 'deleted evt_1' },
        [
          ['response.mcp_call.in_progress', {}],
          ['response.mcp_call_arguments.done', { arguments: APPROVAL_REQUEST.arguments }],
          ['response.mcp_call.completed', {}],
        ],
      )
      .message(1, 'msg_demo_approved', ['The stand-up ', 'is deleted.'])
      .complete(usage(240, 8)),
  },
  {
    id: 'mcp-denied',
    title: 'MCP call, denied',
    summary: 'What a request continuing the response with a denying mcp_approval_response gets: no call, the answer.',
    events: new ResponseScript('resp_demo_denied')
      .start()
      .message(0, 'msg_demo_denied', ['Understood — ', 'the stand-up stays.'])
      .complete(usage(230, 7)),
  },
  {
    id: 'computer-use',
    title: 'A computer call',
    summary:
      'The computer use tool: the response completes with a computer_call (a click, and a safety check to acknowledge), and the run waits for the screenshot taken after it.',
    events: new ResponseScript('resp_demo_computer')
      .start()
      .tool(0, { ...COMPUTER_CALL, status: 'in_progress' }, { status: 'completed' }, [])
      .complete(usage(640, 31)),
  },
  {
    id: 'refusal',
    title: 'Refusal',
    summary: 'The model refuses: a refusal part streams instead of output text.',
    events: new ResponseScript('resp_demo_refusal')
      .start()
      .message(0, 'msg_demo_refusal', ['I can’t ', 'help with that.'], [], 'refusal')
      .complete(usage(40, 7)),
  },
  {
    id: 'incomplete',
    title: 'Incomplete: token limit',
    summary: 'The response stops at max_output_tokens and ends with response.incomplete.',
    events: (() => {
      const script = new ResponseScript('resp_demo_incomplete').start();
      script.add('response.output_item.added', {
        output_index: 0,
        item: { id: 'msg_demo_inc', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      });
      script.add('response.content_part.added', {
        item_id: 'msg_demo_inc',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      script.add('response.output_text.delta', {
        item_id: 'msg_demo_inc',
        output_index: 0,
        content_index: 0,
        delta: 'Once upon a time, there was a',
        logprobs: [],
      });
      return script.finish('response.incomplete', {
        incomplete_details: { reason: 'max_output_tokens' },
        usage: usage(30, 16),
      });
    })(),
  },
  {
    id: 'failed',
    title: 'Failed response',
    summary: 'The response is queued, starts, and fails with a server error.',
    events: new ResponseScript('resp_demo_failed')
      .add('response.queued', { response: { id: 'resp_demo_failed', status: 'queued', model: MODEL } })
      .start()
      .finish('response.failed', {
        error: { code: 'server_error', message: 'The model failed to generate a response.' },
      }),
  },
  {
    id: 'error',
    title: 'Error event',
    summary: 'A top-level error event right away (rate limit).',
    events: new ResponseScript('resp_demo_error')
      .add('error', { code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.', param: null })
      .list(),
  },
  {
    id: 'unknown-types',
    title: 'Types this version does not know',
    summary: 'A new event type and a new item type arrive between known ones: kept and shown.',
    events: new ResponseScript('resp_demo_new')
      .start()
      .add('response.telepathy.delta', { output_index: 0, delta: '…' })
      .tool(0, { id: 'tp_demo', type: 'telepathy_call', status: 'in_progress' }, { status: 'completed' }, [])
      .message(1, 'msg_demo_new', ['Done.'])
      .complete(usage(20, 3)),
  },
  {
    id: 'cut',
    title: 'Connection dropped',
    summary: 'The stream stops inside the output text, before any terminal event.',
    events: (() => {
      const script = new ResponseScript('resp_demo_cut').start();
      script.add('response.output_item.added', {
        output_index: 0,
        item: { id: 'msg_demo_cut', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      });
      script.add('response.content_part.added', {
        item_id: 'msg_demo_cut',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      script.add('response.output_text.delta', {
        item_id: 'msg_demo_cut',
        output_index: 0,
        content_index: 0,
        delta: 'This answer never',
        logprobs: [],
      });
      return script.list();
    })(),
    cut: true,
  },
];
