import { open as openFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../../src-shared/contract/inspector';
import type { SessionSummary, TaskProgress } from '../../src-shared/contract/payloads';
import { createSocketClient, type SocketClient } from '../../src-shared/contract/socket-client';
import { startUpload, type UploadFile } from '../../src-shared/contract/upload-sender';
import { writeBigRecording } from '../services/recording/big-recording-testing';
import { createDefaultSessionService } from '../hosts/default-service';
import { settled, waitFor } from '../services/sessions/service-testing';
import { startWebApp, type WebApp } from './web-app';

/**
 * Uploads through a real browser host on 127.0.0.1, over its WebSocket with the run's token,
 * as the page sends them: a picked file streamed piece by piece while the session decodes it.
 */

const MB = 1024 * 1024;
/** How long the cut-upload tests' service waits for a piece before it calls the upload cut. */
const IDLE_MS = 1500;
let dir: string;
let recording: string;
let size: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-upload-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Agent Stream Inspector</title>');
  recording = join(dir, 'big.jsonl');
  size = await writeBigRecording(recording, 22 * MB);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A file on disk as the page's File: slices read on demand; `hold` can delay the read of a slice. */
async function fileOnDisk(path: string, hold: (start: number) => Promise<void> = () => Promise.resolve()) {
  const handle = await openFile(path);
  const { size: bytes } = await handle.stat();
  const file: UploadFile = {
    name: 'big.jsonl',
    size: bytes,
    async readBase64(start, end) {
      await hold(start);
      const buffer = Buffer.alloc(end - start);
      await handle.read(buffer, 0, buffer.length, start);
      return buffer.toString('base64');
    },
  };
  return { file, close: () => handle.close() };
}

function connect(app: WebApp): SocketClient<typeof INSPECTOR_CONTRACT> {
  return createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)));
}

describe('a large upload in the browser host', () => {
  let app: WebApp;
  beforeAll(async () => {
    app = await startWebApp({ rendererDir: dir, demoAgent: false, sessionsInWorker: true });
  });
  afterAll(() => app.close());

  it('is decoded as it arrives: its first rows come before its last piece is sent, then it loads whole', async () => {
    const c = connect(app);
    const order: string[] = [];
    let firstRows!: () => void;
    const rowsShown = new Promise<void>((resolve) => (firstRows = resolve));
    const rowsIn = new Set<string>();
    c.service.onSessionBatch((batch) => {
      if (batch.total > 0 && !rowsIn.has(batch.sessionId)) {
        rowsIn.add(batch.sessionId);
        order.push('rows');
        firstRows();
      }
    });
    const progress: TaskProgress[] = [];
    c.service.onProgress((p) => progress.push(p));
    const lists: SessionSummary[][] = [];
    c.service.onSessionsChanged((list) => lists.push(list));
    // The page holds its last piece back until rows are shown: an upload decoded only once whole never shows any.
    const { file, close } = await fileOnDisk(recording, async (start) => {
      if (start + 1 * MB >= size) await rowsShown;
    });
    try {
      const upload = await startUpload(c.service, file);
      const session = await upload.session;
      order.push('opened');
      await upload.sent;
      order.push('sent');
      const loaded = await waitFor(
        () => lists.at(-1)?.find((s) => s.id === session.id && s.state !== 'loading'),
        'the uploaded session loaded',
        60_000,
      );
      expect(order).toEqual(['opened', 'rows', 'sent']);
      expect(loaded.state).toBe('complete');
      expect(session.source).toMatchObject({ kind: 'file', importer: 'recording', uploaded: true });

      // The same file opened from disk decodes to the same session.
      const local = createDefaultSessionService();
      try {
        const same = await settled(local, (await local.openFile({ path: recording })).id, 60_000);
        expect(loaded.envelopes).toBe(same.envelopes);
      } finally {
        await local.dispose();
      }
      expect(loaded.envelopes).toBeGreaterThan(50_000);

      // The service reported the upload's progress: bytes arriving ahead of decoding, then all of it.
      const mine = progress.filter((p) => p.sessionId === session.id);
      expect(mine.every((p) => p.task === 'upload' && p.total === size)).toBe(true);
      expect(mine.some((p) => !p.done && p.received < size && p.decoded <= p.received)).toBe(true);
      expect(mine.at(-1)).toMatchObject({ done: true, received: size, decoded: size, envelopes: loaded.envelopes });
    } finally {
      await close();
      c.close();
    }
  }, 120_000);
});

describe('a cut upload', () => {
  let app: WebApp;
  let uploadDir: string;
  beforeAll(async () => {
    uploadDir = join(dir, 'uploads');
    app = await startWebApp({ rendererDir: dir, demoAgent: false, sessionDeps: { uploadDir, uploadIdleMs: IDLE_MS } });
  });
  afterAll(() => app.close());

  it('when the page goes away mid-file: the session fails saying how far it got, and keeps the rows it had', async () => {
    const sender = connect(app);
    const watcher = connect(app);
    const lists: SessionSummary[][] = [];
    watcher.service.onSessionsChanged((list) => lists.push(list));
    // The page sends 3 MB, its session opens, then its socket closes (the tab was closed).
    let opened!: (session: SessionSummary) => void;
    const open = new Promise<SessionSummary>((resolve) => (opened = resolve));
    const { file, close } = await fileOnDisk(recording, async (start) => {
      if (start < 3 * MB) return;
      await open;
      sender.close();
      await new Promise(() => {});
    });
    try {
      const upload = await startUpload(sender.service, file);
      const session = await upload.session;
      opened(session);
      const ended = await waitFor(
        () => lists.at(-1)?.find((s) => s.id === session.id && s.state !== 'loading'),
        'the cut upload ended',
        20_000,
      );
      expect(ended.state).toBe('failed');
      expect(ended.envelopes).toBeGreaterThan(1000);
      const detail = await watcher.service.getSession({ sessionId: session.id });
      const message = detail.summary.failure?.message ?? '';
      expect(message).toMatch(
        new RegExp(
          `big\\.jsonl failed: the upload of big\\.jsonl stopped after \\d+ of ${size} bytes: nothing arrived for 1\\.5 s`,
        ),
      );
      expect(Number(/after (\d+)/.exec(message)?.[1])).toBeGreaterThanOrEqual(3 * MB);
      const rows = await watcher.service.getRows({ sessionId: session.id, start: 0, count: 5 });
      expect(rows.rows.length).toBe(5);
    } finally {
      await close();
      watcher.close();
    }
  }, 60_000);

  it('when the page cannot read its file any more: the session fails with the page’s reason', async () => {
    const c = connect(app);
    const lists: SessionSummary[][] = [];
    c.service.onSessionsChanged((list) => lists.push(list));
    const { file, close } = await fileOnDisk(recording, (start) =>
      start >= 2 * MB ? Promise.reject(new Error('NotReadableError')) : Promise.resolve(),
    );
    try {
      const upload = await startUpload(c.service, file);
      const session = await upload.session;
      await expect(upload.sent).rejects.toThrow(/NotReadableError/);
      const ended = await waitFor(
        () => lists.at(-1)?.find((s) => s.id === session.id && s.state !== 'loading'),
        'the aborted upload ended',
        20_000,
      );
      expect(ended.state).toBe('failed');
      const detail = await c.service.getSession({ sessionId: session.id });
      expect(detail.summary.failure?.message).toMatch(
        /stopped after \d+ of \d+ bytes: the page could not read it any more \(NotReadableError\)/,
      );
    } finally {
      await close();
      c.close();
    }
  }, 60_000);
});
