import type { ServerResponse } from 'node:http';

/** The router's StreamingResponse headers (Starlette adds the charset to text/* types). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/**
 * One streaming response: writes honour back-pressure, and everything stops quietly once
 * the client has gone (a disconnect cancels the run, as the router's CancelledError does).
 */
export class SseResponse {
  private gone = false;
  readonly closed: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    headers: Readonly<Record<string, string>> = {},
  ) {
    this.closed = new Promise((resolve) => {
      res.once('close', () => {
        this.gone = true;
        resolve();
      });
    });
    // A write racing a disconnect reports an error; the close above already ends the stream.
    res.on('error', () => undefined);
    res.writeHead(200, { ...SSE_HEADERS, ...headers });
    res.flushHeaders();
  }

  get isClosed(): boolean {
    return this.gone || this.res.destroyed;
  }

  async write(text: string): Promise<void> {
    if (this.isClosed || this.res.write(text)) return;
    await Promise.race([new Promise((resolve) => this.res.once('drain', resolve)), this.closed]);
  }

  end(): void {
    if (!this.isClosed) this.res.end();
  }

  /**
   * Close the connection without the terminating chunk: the client gets every byte written
   * so far, then a premature end of the body. Ending the socket (not destroying it) flushes
   * what is still buffered.
   */
  drop(): void {
    if (this.isClosed) return;
    const socket = this.res.socket;
    if (socket) socket.end();
    else this.res.destroy();
  }

  /** Abort from the server side (shutdown). */
  destroy(): void {
    this.res.destroy();
  }
}
