import { deltas, singleAgentScenario } from './scenario';

/** Lines of the long answer; with `deltas` cutting 5 to 23 characters, about 14,000 envelopes. */
const LINES = 2_500;

/** Numbered lines, so a row's delta says where in the answer it is. */
function longText(): string {
  const lines: string[] = [];
  for (let line = 1; line <= LINES; line++)
    lines.push(`Line ${line} of ${LINES}: the agent keeps talking, one small delta at a time.\n`);
  return lines.join('');
}

/**
 * Thousands of small text deltas: with pace "fast" the stream arrives as quickly as the
 * loopback carries it, to watch the timeline keep up (and to test that it does).
 */
export const longAnswer = singleAgentScenario(
  {
    id: 'long-answer',
    title: 'Long answer',
    summary: `One text block of ${LINES.toLocaleString('en-US')} numbered lines in about 14,000 small deltas (with pace "fast", as fast as the loopback carries it); its meta_final, full of line breaks, shows the upstream chunker overflowing the frame budget by its JSON escaping.`,
    keywords: ['stress', 'thousands'],
    samplePrompt: 'Stress test: answer with thousands of lines.',
  },
  (agent) => {
    agent.turn().text(deltas(longText())).end('end_turn');
  },
);
