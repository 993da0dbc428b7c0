import { openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, sleep, writeSlowly } from '../connection/loopback-testing';
import { FRONTEND, pieces, settled, useLiveSetup, waitFor } from './service-testing';
import { createTempSpool } from './store/spool-file';

const setup = useLiveSetup();

/** A spool on a full disk: /dev/full takes no byte, every write fails with ENOSPC. */
const fullDisk = () => ({ fd: openSync('/dev/full', 'r+'), path: null });
/** Only the `which` spool is on a full disk. */
const fullDiskFor = (which: string) => (what: string) => (what === which ? fullDisk() : createTempSpool(what));

describe('live sessions', () => {
  it('ends a session whose spool file cannot be written (a full disk) as failed, cut off, with what it kept viewable', async () => {
    const stream = readFixture('example_1.raw.sse');
    let serverSawClose = false;
    let written = 0;
    // Every spool is on a full disk.
    const { server, service, events } = await setup(
      async (req, res) => {
        req.on('close', () => (serverSawClose = true));
        res.writeHead(200, SSE_HEADERS);
        for (const piece of pieces(stream, 4096)) {
          if (res.destroyed) return;
          res.write(piece);
          written += piece.length;
          await sleep(2);
        }
        res.end();
      },
      { openSpool: fullDisk },
    );
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure).toMatchObject({
      kind: 'internal',
      code: 'ENOSPC',
      message: expect.stringMatching(
        /^Writing the session's raw bytes to disk failed: ENOSPC: no space left on device/,
      ) as unknown,
    });
    expect(events.errors).toEqual([
      expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message }),
    ]);
    await waitFor(() => serverSawClose, 'the server to see the connection closed');
    expect(written).toBeLessThan(stream.length);
    // What was received before the failed write is still there: its rows, and its raw bytes exactly.
    const kept = done.bytes;
    expect(kept).toBeGreaterThan(0);
    expect((await service.getRows({ sessionId: id, start: 0, count: 5 })).rows.length).toBeGreaterThan(0);
    const raw = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: 0, byteEnd: kept });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(stream.subarray(0, kept)))).toBe(true);
  });

  it('ends as failed, not stuck, when the envelope text cannot be written', async () => {
    const delta = 'x'.repeat(1500);
    const frames = Array.from(
      { length: 120 },
      () => `data: ${JSON.stringify({ type: 'text', agent: 'a', final: false, delta })}\n\n`,
    );
    // Only the envelopes' text spool is on a full disk.
    const { server, service } = await setup(
      async (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        await writeSlowly(res, [...frames, 'data: [DONE]\n\n'], 1);
      },
      { openSpool: fullDiskFor('envelope text') },
    );
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure?.message).toMatch(/^Writing the session's envelope text to disk failed: ENOSPC/);
    expect((await service.getRows({ sessionId: id, start: 0, count: 5 })).rows.length).toBeGreaterThan(0);
  });

  it('ends as failed, not streaming, when the text written as the leg ends cannot be written', async () => {
    // Frames of no known format are held until the leg ends, and decoded then: their text is
    // written to the spool only as the leg ends (here more than the write buffer holds).
    const held = `data: ${JSON.stringify({ note: 'x'.repeat(70_000) })}\n\n`;
    const { server, service, events } = await setup(
      (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.end(held);
      },
      { openSpool: fullDiskFor('envelope text') },
    );
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure).toMatchObject({
      kind: 'internal',
      code: 'ENOSPC',
      message: expect.stringMatching(/^Writing the session's envelope text to disk failed: ENOSPC/) as unknown,
    });
    expect(events.errors).toEqual([
      expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message }),
    ]);
    // The leg says so too (not "complete", not "the session was closed").
    expect((await service.getSession({ sessionId: id })).legs[0]?.end).toEqual({
      reason: 'failed',
      message: done.failure?.message,
    });
  });

  it('ends as failed, not streaming or complete, when the findings written as the session finishes cannot be written', async () => {
    // Each block left open is reported only as the session finishes, after the leg ended
    // complete: 400 findings, more than the write buffer holds.
    const frames = Array.from(
      { length: 400 },
      (_, i) => `data: ${JSON.stringify({ type: 'text', agent: `a${i}`, final: false, delta: 'x' })}\n\n`,
    );
    const { server, service, events } = await setup(
      (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.end([...frames, 'data: [DONE]\n\n'].join(''));
      },
      { openSpool: fullDiskFor('findings') },
    );
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.envelopes).toBe(401);
    expect(done.failure).toMatchObject({
      kind: 'internal',
      code: 'ENOSPC',
      message: expect.stringMatching(/^Writing the session's findings to disk failed: ENOSPC/) as unknown,
    });
    expect(events.errors).toEqual([
      expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message }),
    ]);
  });

  it('closes a session paused on frontend tools even when the findings written as it finishes cannot be written', async () => {
    const open = Array.from(
      { length: 400 },
      (_, i) => `data: ${JSON.stringify({ type: 'text', agent: `a${i}`, final: false, delta: 'x' })}\n\n`,
    ).join('');
    const { server, service } = await setup(
      (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.end(Buffer.concat([Buffer.from(open), FRONTEND]));
      },
      { openSpool: fullDiskFor('findings') },
    );
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    expect(await settled(service, id)).toMatchObject({ state: 'complete', awaitingTools: true });
    // Closing finishes the session (its open blocks reported): that write fails, the close does not.
    await service.closeSession({ sessionId: id });
    expect(await service.listSessions()).toEqual([]);
  });
});
