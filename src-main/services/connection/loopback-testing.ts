import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Real loopback HTTP servers for tests of the live connection, tool results and hosts
 * (never a mocked fetch). Each server records what it received so tests can assert on it.
 */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface LoopbackServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Resolves when the client side of the n-th request (0-based) has gone away. */
  clientClosed(index: number): Promise<number>;
  close(): Promise<void>;
}

export type LoopbackHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: ReceivedRequest[] = [];
  const closedAt: Promise<number>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    closedAt.push(new Promise((resolve) => res.on('close', () => resolve(performance.now()))));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      void Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    clientClosed: async (index) => {
      while (!closedAt[index]) await sleep(5);
      return closedAt[index];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } as const;

/** Writes `parts` with `gapMs` between them, then ends (or not). */
export async function writeSlowly(
  res: ServerResponse,
  parts: (string | Uint8Array)[],
  gapMs: number,
  end = true,
): Promise<void> {
  for (const part of parts) {
    if (res.destroyed) return;
    res.write(part);
    await sleep(gapMs);
  }
  if (end && !res.destroyed) res.end();
}

/** A port that was just free: connecting to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
