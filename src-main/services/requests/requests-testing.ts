import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { RequestTemplate } from '../../../src-shared/contract/payloads';
import type { SecretCipher } from './secret-cipher';

/** A temp folder made for each test and removed after it; the function gives the current one. */
export function folderPerTest(): () => string {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'asi-requests-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** A real reversible cipher (AES-256-GCM), standing where Electron's safeStorage seals in the app. */
export function aesCipher(): SecretCipher {
  const key = randomBytes(32);
  return {
    encrypted: true,
    description: 'test cipher',
    seal(value) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(value, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), data]).toString('base64');
    },
    open(sealed) {
      const raw = Buffer.from(sealed, 'base64');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

export const TEMPLATE: RequestTemplate = {
  url: '{{base_url}}/agent/run',
  method: 'POST',
  headers: [['Authorization', 'Bearer {{token}}']],
  body: { kind: 'json', text: '{"user_prompt": "hi", "api_key": "{{token}}"}' },
  format: 'json',
  inline: { mode: 'sentinel', tools: [] },
};
export const SECRET = 'sk-live-CANARY-91c2';
