import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LegInfo } from '../../../src-shared/contract/payloads';
import { startLoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled, useFileService } from './service-testing';

/**
 * The envelope export ("Envelopes (NDJSON)") opened again: every byte of each leg, and each
 * leg's head (request, response, whether it was a stream, how it ended), so that a session
 * reopens with the same legs, failures and ends.
 */

const files = useFileService('inspector-envelope-export-', createDefaultSessionService);

const SECRET = 'canary-envelope-export-7f3';

async function exportAndReopen(sessionId: string, name: string): Promise<{ path: string; id: string }> {
  const exported = await files.service.exportSession({
    sessionId,
    kind: 'envelopes-ndjson',
    path: join(files.dir, name),
  });
  const reopened = await files.service.openFile({ path: exported!.path });
  await settled(files.service, reopened.id);
  return { path: exported!.path, id: reopened.id };
}

/** What a leg is to the user, besides the times of this run and how its file was read. */
const legShape = (leg: LegInfo) => ({
  request: leg.request && { method: leg.request.method, url: leg.request.url, headers: leg.request.headers },
  response: leg.response,
  bytes: leg.bytes,
  end: leg.end,
  failure: leg.failure && { kind: leg.failure.kind, message: leg.failure.message, body: leg.failure.body },
});

describe('the envelope export', () => {
  it("carries every byte of the stream: bytes that are not UTF-8 as base64, between events, and a cut event's start", async () => {
    const bytes = Buffer.concat([
      Buffer.from(': keep-alive\n\ndata: {"type":"text","agent":"a","final":false,"delta":"caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('"}\n\ndata: {"type":"text","agent":"a","fin'),
    ]);
    const path = join(files.dir, 'latin1-cut.sse');
    await writeFile(path, bytes);
    const { id } = await files.service.openFile({ path });
    const opened = await settled(files.service, id);
    const exported = await files.service.exportSession({
      sessionId: id,
      kind: 'envelopes-ndjson',
      path: join(files.dir, 'e.ndjson'),
    });
    const lines = (await readFile(exported!.path, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { wire?: string; wireEncoding?: string });
    expect(lines.filter((l) => l.wireEncoding === 'base64')).toHaveLength(1);
    const carried = lines.map((l) =>
      l.wire === undefined ? Buffer.alloc(0) : Buffer.from(l.wire, l.wireEncoding === 'base64' ? 'base64' : 'utf8'),
    );
    expect(Buffer.concat(carried).equals(bytes)).toBe(true);

    const reopened = await settled(files.service, (await files.service.openFile({ path: exported!.path })).id);
    expect(reopened.end).toEqual(opened.end);
    expect(reopened.end?.kind).toBe('truncated');
    const rows = async (sessionId: string) =>
      (await files.service.getRows({ sessionId, start: 0, count: 100 })).rows.map((r) => [r.type, r.preview]);
    expect(await rows(reopened.id)).toEqual(await rows(id));
  });

  it("keeps a leg shown, not decoded: the server's error page, its request and response come back as the failed leg", async () => {
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(422, { 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' });
      res.end('{"detail":"the prompt is empty"}');
    });
    const url = `${server.url}/agent/run`;
    const { id } = await files.service.connect({
      url,
      method: 'POST',
      headers: [['Authorization', `Bearer ${SECRET}`]],
      body: { kind: 'json', text: '{"user_prompt":""}' },
    });
    const original = await settled(files.service, id);
    await server.close();
    expect(original.envelopes).toBe(0);
    const reopened = await exportAndReopen(id, 'failed.ndjson');

    const text = await readFile(reopened.path, 'utf8');
    expect(text).not.toContain(SECRET);
    const is = await files.service.getSession({ sessionId: reopened.id });
    expect(is.legs.map(legShape)).toEqual((await files.service.getSession({ sessionId: id })).legs.map(legShape));
    expect(is.legs[0]).toMatchObject({
      request: { method: 'POST', url },
      response: { status: 422 },
      end: { reason: 'failed' },
      failure: { kind: 'http-status', body: '{"detail":"the prompt is empty"}' },
    });
    // A file's session is loaded whole ('complete'); its end says how the source ended, and its
    // failure (the panel with the body) is the live one's.
    const again = await settled(files.service, reopened.id);
    expect(again.end).toEqual(original.end);
    expect(again.failure).toEqual(original.failure);
    expect(again.failure?.body).toBe('{"detail":"the prompt is empty"}');
    expect(original.end?.kind).toBe('failed');
  });

  it('keeps the bytes of a leg that decoded no envelope (comments only), and how it ended', async () => {
    const bytes = ': keep-alive\n\n: still thinking\n';
    const path = join(files.dir, 'comments.sse');
    await writeFile(path, bytes);
    const { id } = await files.service.openFile({ path });
    const original = await settled(files.service, id);
    const reopened = await exportAndReopen(id, 'comments.ndjson');
    const again = await settled(files.service, reopened.id);
    expect({ state: again.state, end: again.end, envelopes: again.envelopes }).toEqual({
      state: original.state,
      end: original.end,
      envelopes: 0,
    });
    const is = await files.service.getSession({ sessionId: reopened.id });
    expect(is.legs.map(legShape)).toEqual((await files.service.getSession({ sessionId: id })).legs.map(legShape));
    expect(is.legs[0]?.bytes).toBe(bytes.length);
  });

  it("import.skipped-item: a leg's head line that is not valid is reported, and the leg is read from its envelopes", async () => {
    const path = join(files.dir, 'one.sse');
    await writeFile(path, 'data: {"type":"text","agent":"a","final":true,"delta":"hi"}\n\n');
    const { id } = await files.service.openFile({ path });
    await settled(files.service, id);
    const exported = await files.service.exportSession({
      sessionId: id,
      kind: 'envelopes-ndjson',
      path: join(files.dir, 'one.ndjson'),
    });
    const lines = (await readFile(exported!.path, 'utf8')).trimEnd().split('\n');
    const head = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(head).toMatchObject({ exportedLeg: 0, stream: true, end: { reason: 'done' } });
    const damaged = join(files.dir, 'damaged.ndjson');
    await writeFile(damaged, [JSON.stringify({ ...head, stream: 'yes' }), ...lines.slice(1)].join('\n') + '\n');

    const reopened = await files.service.openFile({ path: damaged });
    const summary = await settled(files.service, reopened.id);
    expect(summary.envelopes).toBe(1);
    const findings = await files.service.getDiagnostics({ sessionId: reopened.id });
    expect(findings.filter((d) => d.rule === 'import.skipped-item').map((d) => d.message)).toEqual([
      expect.stringMatching(/^Line 1 \(byte 0\) is a leg's head line, but its "stream" is neither true nor false/),
    ]);
  });
  it("import.skipped-item: a leg head's body that is not the base64 it says is reported; the leg keeps its head, its bytes are not made up", async () => {
    const head = {
      exportedLeg: 0,
      startedAt: 0,
      request: null,
      response: { status: 500, statusText: 'Internal Server Error', headers: [['Content-Type', 'text/plain']] },
      stream: false,
      end: { reason: 'error', message: 'HTTP 500' },
      decodeAs: 'martian-rpc',
      receivedAt: 3,
      wire: 'not base64!',
      wireEncoding: 'base64',
    };
    const path = join(files.dir, 'bad-body.ndjson');
    await writeFile(path, `${JSON.stringify(head)}\n`);
    const reopened = await files.service.openFile({ path });
    const summary = await settled(files.service, reopened.id);
    // A dialect this version does not know is not chosen: nothing was decoded, so none is named.
    expect(summary).toMatchObject({ httpStatus: 500, envelopes: 0, format: null });
    expect((await files.service.getSession({ sessionId: reopened.id })).legs[0]).toMatchObject({
      response: { status: 500 },
      end: { reason: 'failed' },
    });
    const findings = await files.service.getDiagnostics({ sessionId: reopened.id });
    expect(findings.filter((d) => d.rule === 'import.skipped-item').map((d) => d.message)).toEqual([
      expect.stringMatching(/^Line 1 \(byte 0\) has wire bytes that are no string, or not the base64 it says/),
    ]);
  });
});
