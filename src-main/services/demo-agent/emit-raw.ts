import { dumpEvent } from './api-dump';
import { modelDumpJson } from './python-json';
import { rawStreamEscape, type AgentStep, type Formatter } from './emit-shared';
import { xmlAgentItem } from './emit-xml-agent';

/**
 * `raw_formatter`: each of the six Anthropic events as `model_dump_json()` (compact, UTF-8)
 * through `stream_to_aqueue`; the agent layer's items stay XML, so a raw stream mixes JSON
 * lines and XML lines.
 */
export function createRawFormatter(): Formatter {
  return (step: AgentStep): string[] =>
    step.kind === 'api' ? [rawStreamEscape(modelDumpJson(dumpEvent(step.event)))] : [xmlAgentItem(step, 'raw')];
}
