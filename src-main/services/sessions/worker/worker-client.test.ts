import { afterEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { fixturePath, readFixture } from '../../../testing/fixtures';
import { startSessionWorker, type SessionWorker } from './worker-client';

let worker: SessionWorker | undefined;
afterEach(async () => {
  await worker?.dispose();
  worker = undefined;
});

describe('the session service in a worker thread', () => {
  it('decodes a file off the main thread and answers the same contract', async () => {
    worker = startSessionWorker({ entry: new URL('./session-worker.ts', import.meta.url), fromSource: true, demoAgentUrl: 'http://127.0.0.1:1' });
    const service = worker.service;
    let rows = 0;
    service.onSessionBatch((b) => (rows += b.columns.receivedAt.length));
    const { id } = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    const expected = decodeBytes(readFixture('multi_agent.json.sse')).envelopes.length;
    for (let i = 0; i < 200 && rows < expected; i++) await new Promise((r) => setTimeout(r, 20));
    expect(rows).toBe(expected);
    const page = await service.getRows({ sessionId: id, start: 0, count: 3 });
    expect(page.rows).toHaveLength(3);
    expect((await service.getDemoAgent())?.runUrl).toBe('http://127.0.0.1:1/agent/run');
    await expect(service.getAppInfo()).rejects.toThrow(/answered by the host/);
    await expect(service.getSession({ sessionId: 'nope' })).rejects.toThrow(/Unknown session/);
  });
});
