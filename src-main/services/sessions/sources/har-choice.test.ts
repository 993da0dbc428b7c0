import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../testing/fixtures';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { settled, useServicePerTest } from '../service-testing';

/**
 * A HAR of several event streams that this inspector did not write: the session waits for the
 * user to choose its entries (the page shows them), then loads the chosen ones as its legs.
 */

const fresh = useServicePerTest('har-choice-', (dir) => createDefaultSessionService({ uploadDir: dir }));

const entry = (url: string, mimeType: string, text: string) => ({
  startedDateTime: '2026-03-01T12:00:00.000Z',
  request: { method: 'POST', url, headers: [], postData: { mimeType: 'application/json', text: '{}' } },
  response: {
    status: 200,
    statusText: 'OK',
    headers: [{ name: 'Content-Type', value: mimeType }],
    content: { size: text.length, mimeType, text },
  },
  timings: { wait: 5, receive: 10 },
});
const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    entries: [
      entry('http://h/agent/sessions', 'application/json', '[]'),
      entry('http://h/agent/run', 'text/event-stream', Buffer.from(readFixture('frontend_tools.json.sse')).toString()),
      entry(
        'http://h/agent/tool_results',
        'text/event-stream',
        Buffer.from(readFixture('frontend_tools_resume.json.sse')).toString(),
      ),
    ],
  },
});

describe('a HAR that asks which entries to open', () => {
  it.each(['path', 'upload'] as const)(
    'opened by %s, waits with every entry listed, then loads the chosen ones as its legs',
    async (how) => {
      const path = join(fresh.dir, 'devtools.har');
      await writeFile(path, HAR);
      const opened =
        how === 'path'
          ? await fresh.service.openFile({ path })
          : await fresh.service.openUpload({ name: 'devtools.har', base64: Buffer.from(HAR).toString('base64') });
      expect(opened).toMatchObject({ choosingHarEntries: true, legs: 0, envelopes: 0 });
      const detail = await fresh.service.getSession({ sessionId: opened.id });
      expect(detail.summary.choosingHarEntries).toBe(true);
      expect(detail.harEntries?.map((e) => [e.index, e.method, e.url, e.status, e.isStream])).toEqual([
        [0, 'POST', 'http://h/agent/sessions', 200, false],
        [1, 'POST', 'http://h/agent/run', 200, true],
        [2, 'POST', 'http://h/agent/tool_results', 200, true],
      ]);
      await expect(fresh.service.openHarEntries({ sessionId: opened.id, entries: [] })).rejects.toThrow(/at least one/);

      const chosen = await fresh.service.openHarEntries({ sessionId: opened.id, entries: [1, 2] });
      expect(chosen.id).toBe(opened.id);
      expect(chosen.choosingHarEntries).toBeUndefined();
      const done = await settled(fresh.service, opened.id);
      expect(done).toMatchObject({ legs: 2, state: 'complete', awaitingTools: false, end: { kind: 'done' } });
      expect((await fresh.service.getSession({ sessionId: opened.id })).harEntries).toBeUndefined();
      await expect(fresh.service.openHarEntries({ sessionId: opened.id, entries: [1] })).rejects.toThrow(
        /not a HAR file waiting/,
      );
    },
  );
});
