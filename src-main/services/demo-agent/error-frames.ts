import { pyRepr } from './python-json';
import type { Step } from './script';

/**
 * The router's error frames (`{"error": <class>, "message": str(e), "traceback": …}`) for the
 * failures the demo reproduces, with tracebacks shaped like the upstream's.
 */

/** A Python traceback as the router's error frame carries it (`traceback.format_exc()`). */
export function pythonTraceback(
  frames: readonly (readonly [file: string, line: number, fn: string, code: string])[],
  exception: string,
): string {
  const body = frames
    .map(([file, line, fn, code]) => `  File "${file}", line ${line}, in ${fn}\n    ${code}\n`)
    .join('');
  return `Traceback (most recent call last):\n${body}${exception}\n`;
}

const ROUTER = '/app/demos/fastapi_server/agent_router.py';
const AGENT = '/app/anthropic_agent/core/agent.py';

/** The error frame of an Anthropic error the SDK raises mid-stream (an overloaded API answers 200, then fails). */
export function overloadedErrorFrame(): Step {
  const message = pyRepr({ type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' } });
  const traceback = pythonTraceback(
    [
      [ROUTER, 548, 'stream_agent_response', 'await agent_task'],
      [ROUTER, 528, 'run_agent_and_signal', 'result = await agent.run(user_prompt, queue)'],
      [AGENT, 799, 'run', 'accumulated_message = await anthropic_stream_with_backoff('],
      [
        '/app/anthropic_agent/core/retry.py',
        94,
        'anthropic_stream_with_backoff',
        'accumulated_message = await render_stream(',
      ],
      ['/app/anthropic_agent/streaming/formatters.py', 490, 'json_formatter', 'async for event in stream:'],
    ],
    `anthropic.APIStatusError: ${message}`,
  );
  return { kind: 'error_frame', error: 'APIStatusError', message, traceback };
}

/** The error frame of a resume the legacy agent refuses (`continue_with_tool_results`). */
export function resumeErrorFrame(message: string, line: number): Step {
  const traceback = pythonTraceback(
    [
      [ROUTER, 625, 'stream_tool_results_response', 'await agent_task'],
      [ROUTER, 598, 'run_continuation', 'result = await agent.continue_with_tool_results('],
      [AGENT, line, 'continue_with_tool_results', 'raise ValueError('],
    ],
    `ValueError: ${message}`,
  );
  return { kind: 'error_frame', error: 'ValueError', message, traceback };
}
