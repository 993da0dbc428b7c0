import { afterAll, beforeAll, expect } from 'vitest';
import { concatBytes } from '../../../../src-shared/bytes/held-bytes';
import { startDemoAgent, type DemoAgent } from '../server';

/** Test support: a real HTTP client (global fetch) for the demo agent, and SSE body helpers. */

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

/** A demo agent (fast pace) started before this file's tests and stopped after them; read `url` inside a test. */
export function useDemoAgent(): { readonly url: string } {
  let demo: DemoAgent | undefined;
  beforeAll(async () => {
    demo = await startDemoAgent({ pace: 'fast' });
  });
  afterAll(async () => {
    await demo?.close();
  });
  return {
    get url() {
      if (!demo) throw new Error('the demo agent is not started yet: read url inside a test');
      return demo.url;
    },
  };
}

/** The agent uuid the tests' requests name. */
export const AGENT = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';

/** The two POST endpoints of the demo agent `useDemoAgent` started: a run, and a paused run's tool results. */
export function demoEndpoints(demo: { readonly url: string }): {
  run: (body: Record<string, unknown>, query?: string) => Promise<Reply>;
  answer: (body: Record<string, unknown>, query?: string) => Promise<Reply>;
} {
  return {
    run: (body, query = '') => post(demo.url, `/agent/run${query}`, body),
    answer: (body, query = '') => post(demo.url, `/agent/tool_results${query}`, body),
  };
}

export async function post(base: string, path: string, body: unknown, init: { raw?: boolean } = {}): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The data payloads of a well-formed stream: every event is exactly one `data:` line. */
export function items(text: string): string[] {
  const parts = text.split('\n\n');
  expect(parts.pop()).toBe('');
  return parts.map((part) => {
    expect(part.startsWith('data: ')).toBe(true);
    expect(part).not.toMatch(/[\r\n]/);
    return part.slice('data: '.length);
  });
}

export interface Envelope {
  type: string;
  agent: string;
  final: boolean;
  delta: string;
  [extra: string]: unknown;
}

export const envelopes = (text: string): Envelope[] =>
  items(text)
    .filter((i) => i !== '[DONE]' && !i.startsWith('{"error"'))
    .map((i) => JSON.parse(i) as Envelope);

/** Buffered payloads reassembled per (agent, type) until their final chunk, in completion order. */
export function payloads(list: readonly Envelope[], type: string): string[] {
  const out: string[] = [];
  const open = new Map<string, string>();
  for (const e of list) {
    if (e.type !== type) continue;
    const text = (open.get(e.agent) ?? '') + e.delta;
    if (e.final) {
      out.push(text);
      open.delete(e.agent);
    } else open.set(e.agent, text);
  }
  return out;
}

/** Reads a body to its end or its failure, keeping every byte that arrived. */
export async function readAll(response: Response): Promise<{ bytes: Uint8Array; error: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let error: unknown = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (e) {
    error = e;
  }
  return { bytes: concatBytes(chunks), error };
}
