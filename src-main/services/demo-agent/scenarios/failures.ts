import { utf8ByteLength } from '../../../../src-shared/text/utf8';
import { overloadedErrorFrame } from '../error-frames';
import { deltas, mainAgent, type Scenario, singleAgentScenario, thoughtDeltas } from './scenario';

export const errorMidstream: Scenario = {
  id: 'error-midstream',
  title: 'Error mid-stream',
  summary:
    'Thinking and part of a text block, then the API fails: the router sends its error frame {"error","message","traceback"} and no [DONE].',
  keywords: ['error', 'fail', 'failure', 'overloaded', 'crash'],
  samplePrompt: 'Trigger an API error half-way through the answer.',
  demonstrates: {
    json: ['stream.error-frame', 'block.unterminated'],
    xml: ['stream.error-frame', 'block.unterminated', 'xml.unclosed'],
    raw: ['stream.error-frame', 'block.unterminated', 'raw.block-not-stopped'],
  },
  build(ctx) {
    const agent = mainAgent(ctx);
    const turn = agent.turn().thinking(thoughtDeltas('A long answer about the order of operations is needed here.'));
    turn.partialText(
      deltas('I need to calculate 5 + (10 * 2) following the order of operations (multiplication first,'),
    );
    turn.abandon();
    return { steps: [...agent.take(), overloadedErrorFrame()] };
  },
};

/** About 10 KB of text dense in multi-byte characters (2-, 3- and 4-byte UTF-8), without backslashes or CR. */
export function quarterlyReport(targetBytes = 10_000): string {
  const lines: string[] = ['Quarterly report Q3 — Überblick / 概要 / résumé'];
  let bytes = utf8ByteLength(lines[0] ?? '');
  for (let n = 1; bytes < targetBytes; n++) {
    const line = `${n}. Région Île-de-France — chiffre d’affaires ${n * 137} k€ ✓ · 区域摘要：收入增长 ${n % 17} % 📈 · Ümsatz für Köln ${n * 3}`;
    lines.push(line);
    bytes += utf8ByteLength(line) + 1;
  }
  return lines.join('\n');
}

function summaryMarkdown(): string {
  const rows = Array.from(
    { length: 60 },
    (_, i) => `| Région ${i + 1} | ${(i + 1) * 137} k€ | ${(i * 7) % 23} % | ✓ 达标 |`,
  );
  return [
    '# Q3 summary — résumé',
    '',
    '| Région | Chiffre | Δ | 状态 |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    'Prepared by the demo agent 🤖.',
  ].join('\n');
}

export const largePayloads = singleAgentScenario(
  {
    id: 'large-payloads',
    title: 'Large payloads',
    summary:
      'A ~10 KB tool result and a ~3 KB tool call, full of multi-byte characters, chunked by the seed algorithm (UTF-8-safe splits), and a meta_final with the whole history.',
    keywords: ['large', 'big', 'chunk', 'chunked', 'chunking', 'huge'],
    samplePrompt: 'Fetch the large quarterly report and save a summary.',
  },
  (agent) => {
    agent
      .turn()
      .text(deltas("I'll fetch the full quarterly report."))
      .toolUse('toolu_demo_fetch', 'fetch_report', { report_id: 'Q3-2025' })
      .end('tool_use');
    agent.toolResult('toolu_demo_fetch', 'fetch_report', quarterlyReport());
    const summary = summaryMarkdown();
    agent
      .turn()
      .text(deltas('Saving a summary table.'))
      .toolUse('toolu_demo_write', 'write_file', { path: 'reports/q3-summary.md', content: summary }, 64)
      .end('tool_use');
    agent.toolResult(
      'toolu_demo_write',
      'write_file',
      `Wrote ${utf8ByteLength(summary)} bytes to reports/q3-summary.md`,
    );
    agent
      .turn()
      .text(deltas('The report is saved: revenue grew in every région, see reports/q3-summary.md.'))
      .end('end_turn');
  },
);

export const FAILURE_SCENARIOS: readonly Scenario[] = [errorMidstream, largePayloads];
