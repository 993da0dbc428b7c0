import { describe, expect, test } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import { renderScript } from './emit';
import type { Format } from './script';
import { stepsFromRaw } from './testing/steps-from-raw';

/**
 * The emitters run over the exact events the upstream formatters saw (read back from the
 * upstream raw streams) must write the upstream's own json, xml and raw streams.
 */

const text = (name: string): string => new TextDecoder().decode(readFixture(name));
const events = (stream: string): string[] => stream.split('\n\n');

const RESUME_AGENT = '55555555-5555-4555-8555-555555555555';

const CASES: [name: string, format: Format, agent?: string][] = [
  ['frontend_tools', 'json'],
  ['frontend_tools', 'xml'],
  ['frontend_tools', 'raw'],
  ['frontend_tools_resume', 'json', RESUME_AGENT],
  ['frontend_tools_resume', 'xml', RESUME_AGENT],
  ['frontend_tools_resume', 'raw', RESUME_AGENT],
  ['json_stream', 'json'],
  ['json_stream', 'xml'],
  ['json_stream', 'raw'],
  ['probe_citations', 'json'],
  ['probe_citations', 'xml'],
  ['probe_citations', 'raw'],
  ['probe_escaping', 'xml'],
  ['probe_escaping', 'raw'],
  // Thinking with signatures, server tools (Python reprs), meta_files, a 13 KB meta_final with costs.
  ['example_1', 'json'],
  ['example_1', 'xml'],
];

describe('emitters reproduce the upstream formatters byte for byte', () => {
  test.each(CASES)('%s.%s.sse', (name, format, agent) => {
    const steps = stepsFromRaw(text(`${name}.raw.sse`), agent);
    expect(renderScript(steps, format)).toBe(text(`${name}.${format}.sse`));
  });

  test('probe_escaping.json.sse: every event but the tool_result whose CR and backslash the raw stream folded', () => {
    const got = events(renderScript(stepsFromRaw(text('probe_escaping.raw.sse')), 'json'));
    const want = events(text('probe_escaping.json.sse'));
    expect(got).toHaveLength(want.length);
    const differing = got.flatMap((event, i) => (event === want[i] ? [] : [i]));
    // The raw stream carries tool results as XML CDATA, where CR became LF and a literal
    // backslash-n became indistinguishable from a newline: that content cannot be recovered.
    expect(differing).toHaveLength(1);
    expect(want[differing[0] ?? -1]).toContain('"type":"tool_result"');
    expect(want[differing[0] ?? -1]).toContain('CRLF:\\r\\nafter');
  });
});
