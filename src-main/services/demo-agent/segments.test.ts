import { describe, expect, test } from 'vitest';
import { decodeLegs } from '../../../src-shared/pipeline/session-decoder';
import { readAll, useDemoAgent } from './testing/http';

/**
 * The demo's segment-event stream (POST /segments/run): a scenario's model text as the
 * server-side streaming parser would send it, decoded by the segment-events dialect into the
 * same segments the inline stage finds in the text of the agent API's formats.
 */
const demo = useDemoAgent();
const AGENT = '0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e';

async function post(path: string, scenario: string, format?: string): Promise<Uint8Array> {
  const response = await fetch(`${demo.url}${path}`, {
    method: 'POST',
    body: JSON.stringify({ user_prompt: 'x', scenario, agent_uuid: AGENT, ...(format ? { format } : {}) }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return (await readAll(response)).bytes;
}

const shape = (
  segments: readonly { type: string; metadata: Record<string, unknown>; content: string; complete: boolean }[],
) => segments.map(({ type, metadata, content, complete }) => ({ type, metadata, content, complete }));

describe('the demo segment-event stream', () => {
  test.each(['inline-xml', 'inline-segments', 'inline-sentinels', 'inline-malformed-segments'])(
    '%s: the same segments as the inline stage finds in the JSON run',
    async (scenario) => {
      const events = decodeLegs([[{ bytes: await post('/segments/run', scenario) }]]);
      expect(events.formats).toEqual(['segments']);
      expect(events.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      const fromEvents = events.blocks.flatMap((b) => b.segments ?? []);

      const run = decodeLegs([[{ bytes: await post('/agent/run', scenario, 'json') }]]);
      const fromText = run.blocks.filter((b) => b.kind === 'text').flatMap((b) => b.segments ?? []);
      // Over the wire, every segment ends (the parser finalises what the text left open).
      expect(shape(fromEvents)).toEqual(shape(fromText).map((s) => ({ ...s, complete: true })));
      expect(fromEvents.map((s) => s.id)).toEqual(fromEvents.map((_, i) => `seg_${i + 1}`));
    },
  );
});
