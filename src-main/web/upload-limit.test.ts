import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../../src-shared/contract/inspector';
import { createSocketClient } from '../../src-shared/contract/socket-client';
import { startUpload, type UploadFile } from '../../src-shared/contract/upload-sender';
import { readFixture } from '../testing/fixtures';
import { waitFor } from '../services/sessions/service-testing';
import { DEFAULT_MAX_UPLOAD_BYTES, MAX_UPLOAD_ENV, maxUploadBytesFrom } from './upload-limit';
import { startWebApp, type WebApp } from './web-app';

/** The browser host's upload limit, over its real WebSocket: a file over it is refused before a byte is sent. */

const MB = 1024 * 1024;
let dir: string;
let app: WebApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-upload-limit-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Agent Stream Inspector</title>');
  app = await startWebApp({ rendererDir: dir, demoAgent: false, maxUploadBytes: MB });
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

/** A page's file of `bytes`, counting the pieces read from it. */
function pageFile(name: string, bytes: Uint8Array) {
  const reads: number[] = [];
  const file: UploadFile = {
    name,
    size: bytes.length,
    readBase64(start, end) {
      reads.push(start);
      return Promise.resolve(Buffer.from(bytes.subarray(start, end)).toString('base64'));
    },
  };
  return { file, reads };
}

function connect() {
  return createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)));
}

const REFUSED =
  /^413 Payload Too Large: big\.sse is 2 MiB, over this browser host's upload limit of 1 MiB\. .*STREAM_INSPECTOR_MAX_UPLOAD_MB\.$/;

describe('the browser host upload limit', () => {
  it('refuses a streamed upload over the limit with a 413 before any piece is read, and takes one under it', async () => {
    const c = connect();
    try {
      const big = pageFile('big.sse', new Uint8Array(2 * MB));
      await expect(startUpload(c.service, big.file)).rejects.toThrow(REFUSED);
      expect(big.reads).toEqual([]);
      expect(await c.service.listSessions()).toEqual([]);

      const small = pageFile('small.sse', readFixture('json_stream.json.sse'));
      const upload = await startUpload(c.service, small.file);
      const session = await upload.session;
      await upload.sent;
      const loaded = await waitFor(async () => {
        const found = (await c.service.listSessions()).find((s) => s.id === session.id);
        return found?.state === 'complete' && found;
      }, 'the small upload loaded');
      expect(loaded.envelopes).toBeGreaterThan(0);
    } finally {
      c.close();
    }
  });

  it('refuses a file sent whole over the limit', async () => {
    const c = connect();
    try {
      const base64 = Buffer.alloc(2 * MB).toString('base64');
      await expect(c.service.openUpload({ name: 'big.sse', base64 })).rejects.toThrow(REFUSED);
    } finally {
      c.close();
    }
  });

  it(`is 4 GiB unless ${MAX_UPLOAD_ENV} says otherwise, in whole MiB`, () => {
    expect(maxUploadBytesFrom({})).toBe(DEFAULT_MAX_UPLOAD_BYTES);
    expect(DEFAULT_MAX_UPLOAD_BYTES).toBe(4 * 1024 * MB);
    expect(maxUploadBytesFrom({ [MAX_UPLOAD_ENV]: '512' })).toBe(512 * MB);
    for (const bad of ['0', '-1', '1.5', '4G', ' 12'])
      expect(() => maxUploadBytesFrom({ [MAX_UPLOAD_ENV]: bad })).toThrow(`${MAX_UPLOAD_ENV} takes a size in MiB`);
  });
});
