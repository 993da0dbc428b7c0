import type { Format } from '../demo-agent/index';

/**
 * The sample recordings shipped in resources/samples: one per kind of thing the inspector
 * shows. Each file says how scripts/record-samples.ts records it from the embedded demo agent
 * (scenario, wire format, whether the paused run is answered), so the samples stay in step
 * with the agent: re-record them with `npm run samples` after changing a scenario.
 */
export interface SampleFile {
  /** File name in resources/samples. */
  file: string;
  /** The demo agent scenario (src-main/services/demo-agent/scenarios). */
  scenario: string;
  format: Format;
  /** Answer the run's frontend tools as `stream-inspector answer --yes` does and record the continuation. */
  answer?: boolean;
  /** The session title when the sample has several files. */
  label?: string;
}

export interface Sample {
  id: string;
  title: string;
  summary: string;
  files: readonly SampleFile[];
}

export const SAMPLES: readonly Sample[] = [
  {
    id: 'multi-agent',
    title: 'Multi-agent run',
    summary:
      'A parent agent delegates to two sub-agents working in parallel: three agents interleave their envelopes on one connection.',
    files: [{ file: 'multi-agent.recording', scenario: 'subagents', format: 'json' }],
  },
  {
    id: 'frontend-tool',
    title: 'Frontend tool: pause and continuation',
    summary:
      'The run pauses on awaiting_frontend_tools for a user confirmation; the answer and the continuation it started are the second leg.',
    files: [{ file: 'frontend-tool.recording', scenario: 'frontend-tools', format: 'json', answer: true }],
  },
  {
    id: 'xml-vs-json',
    title: 'One run in XML and in JSON',
    summary:
      'The same scripted run streamed in the legacy XML format and as JSON envelopes: two sessions to compare in the Diff view.',
    files: [
      { file: 'tour.xml.recording', scenario: 'tour', format: 'xml', label: 'XML' },
      { file: 'tour.json.recording', scenario: 'tour', format: 'json', label: 'JSON' },
    ],
  },
  {
    id: 'faulty-stream',
    title: 'Faulty stream',
    summary:
      'The response ends in the middle of an event: half a data: line, no blank line, no [DONE]. The diagnostics say what was lost.',
    files: [{ file: 'truncated.recording', scenario: 'fault-truncated', format: 'json' }],
  },
];

export function sampleById(id: string): Sample | undefined {
  return SAMPLES.find((sample) => sample.id === id);
}
