import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { waitFor } from '../services/sessions/service-testing';
import { createBackpressure, type Backpressure } from './backpressure';

let server: WebSocketServer | undefined;
let watch: Backpressure | undefined;
afterEach(async () => {
  watch?.dispose();
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = watch = undefined;
});

/** A server socket and the client at its other end, over loopback. */
async function pair(): Promise<{ served: WebSocket; client: WebSocket }> {
  const wss = (server = new WebSocketServer({ host: '127.0.0.1', port: 0 }));
  await new Promise((resolve) => wss.once('listening', resolve));
  const served = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve) => client.once('open', resolve));
  return { served: await served, client };
}

const PIECE = 'x'.repeat(64 * 1024);

describe('socket backpressure', () => {
  it('says a socket backed up once its reader stops, and released once it reads again', async () => {
    const { served, client } = await pair();
    const changes: boolean[] = [];
    watch = createBackpressure({
      onChange: (backedUp) => changes.push(backedUp),
      highWater: 1024 * 1024,
      lowWater: 128 * 1024,
      pollMs: 10,
    });
    let received = 0;
    client.on('message', (data: Buffer) => (received += data.length));
    // The reader stops taking bytes off its socket, as a browser does for a paused page.
    (client as unknown as { _socket: Socket })._socket.pause();
    let sent = 0;
    for (let i = 0; i < 1024 && changes.length === 0; i++) {
      served.send(PIECE);
      sent += PIECE.length;
      watch.sent(served);
      if (served.bufferedAmount > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(changes).toEqual([true]);
    // Sending on into a socket already backed up says nothing new.
    served.send(PIECE);
    sent += PIECE.length;
    watch.sent(served);
    expect(changes).toEqual([true]);

    (client as unknown as { _socket: Socket })._socket.resume();
    await waitFor(() => (changes.length === 2 ? true : undefined), 'the release');
    expect(changes).toEqual([true, false]);
    await waitFor(() => (received === sent ? true : undefined), 'every byte sent');
  });

  it('gives up a socket that stays backed up, so that it holds nothing back for good', async () => {
    const { served, client } = await pair();
    const changes: boolean[] = [];
    const stuck: unknown[] = [];
    watch = createBackpressure({
      onChange: (backedUp) => changes.push(backedUp),
      onStuck: (socket) => {
        stuck.push(socket);
        (socket as WebSocket).terminate();
      },
      highWater: 1024 * 1024,
      pollMs: 10,
      stuckMs: 200,
    });
    (client as unknown as { _socket: Socket })._socket.pause();
    for (let i = 0; i < 1024 && changes.length === 0; i++) {
      served.send(PIECE);
      watch.sent(served);
      if (served.bufferedAmount > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const closed = new Promise((resolve) => client.once('close', resolve));
    await waitFor(() => (changes.length === 2 ? true : undefined), 'the socket given up');
    expect(changes).toEqual([true, false]);
    expect(stuck).toEqual([served]);
    (client as unknown as { _socket: Socket })._socket.resume();
    await closed;
  });

  it('releases a backed-up socket that closes, and holds while any other is still backed up', async () => {
    const changes: boolean[] = [];
    watch = createBackpressure({ onChange: (backedUp) => changes.push(backedUp), highWater: 10, pollMs: 10 });
    // What a closed socket reports: nothing drains it any more, and nothing needs to.
    const first = { bufferedAmount: 100, readyState: WebSocket.OPEN as number };
    const second = { bufferedAmount: 100, readyState: WebSocket.OPEN as number };
    watch.sent(first);
    watch.sent(second);
    expect(changes).toEqual([true]);
    watch.closed(first);
    expect(changes).toEqual([true]);
    second.readyState = WebSocket.CLOSED;
    await waitFor(() => (changes.length === 2 ? true : undefined), 'the release');
    expect(changes).toEqual([true, false]);
  });
});
