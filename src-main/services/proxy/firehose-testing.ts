import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';

/**
 * Test support for a proxy under load: an upstream that pours small text events as fast as
 * its client reads them, and clients that read such streams counting (not keeping) their
 * bytes, so that a test waits for how much went through instead of sleeping.
 */

export function startFirehose(): Promise<LoopbackServer> {
  const burst = Buffer.from('data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n'.repeat(2000));
  return startLoopbackServer(async (_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    while (!res.destroyed) if (!res.write(burst)) await new Promise((r) => res.once('drain', r));
  });
}

export interface FirehoseClients {
  /** Resolves once every client has received at least `bytes`. */
  received(bytes: number): Promise<void>;
  /** How each stream ended: null when it ended cleanly, else the error that cut it. */
  ended: Promise<{ error: unknown }[]>;
}

/** `count` clients POSTing to `url`, each reading its stream to the end. */
export function readFirehoses(url: string, count: number): FirehoseClients {
  const counts = new Array<number>(count).fill(0);
  const waiting = new Set<() => void>();
  const ended = Promise.all(
    counts.map(async (_, i) => {
      try {
        const response = await fetch(url, { method: 'POST', body: '{}' });
        const reader = response.body!.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) {
          counts[i]! += (part.value as Uint8Array).length;
          for (const check of waiting) check();
        }
        return { error: null };
      } catch (error) {
        return { error };
      }
    }),
  );
  const received = (bytes: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (counts.some((n) => n < bytes)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { received, ended };
}
