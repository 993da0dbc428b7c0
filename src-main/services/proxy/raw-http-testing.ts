import { connect } from 'node:net';

/**
 * Sends bytes to a loopback HTTP server exactly as given (no client library normalising the
 * request target or the framing) and returns what came back until the server closed the
 * connection or `timeoutMs` passed. For tests of what a hostile client can send.
 */
export function sendRaw(port: number, request: string | Uint8Array, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', done);
    socket.on('close', done);
    // Not half-closed: the server would take the end of the request for a client that left.
    socket.write(request);
  });
}

/** The status code of the first response in `answer`, or null when none came. */
export function statusOf(answer: string): number | null {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
  return match ? Number(match[1]) : null;
}
