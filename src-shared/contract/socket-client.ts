import type { ContractDef, ContractNames } from './define';
import { createContractClient, type ContractClient, type ContractClientOptions } from './wire';

/**
 * The part of a WebSocket the client needs. The browser's WebSocket and the `ws` package's
 * both fit, so the renderer and the tests share this code.
 */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
}

const OPEN = 1;

export interface SocketClient<C extends ContractDef> extends Pick<ContractClient<C>, 'service'> {
  /** Resolves once the socket is open; rejects if it closes first (e.g. refused: wrong token). */
  readonly ready: Promise<void>;
  /** Resolves when the socket has closed, with the reason. */
  readonly closed: Promise<string>;
  close(): void;
}

/** A contract client over a WebSocket carrying one JSON message per text frame. */
export function createSocketClient<C extends ContractDef>(
  contract: C,
  names: ContractNames<C>,
  socket: SocketLike,
  options: ContractClientOptions = {},
): SocketClient<C> {
  const queue: string[] = [];
  const client = createContractClient(
    contract,
    names,
    (message) => {
      const text = JSON.stringify(message);
      if (socket.readyState === OPEN) socket.send(text);
      else queue.push(text);
    },
    options,
  );

  let resolveReady!: () => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A refused connection must not surface as an unhandled rejection when nobody awaits ready.
  ready.catch(() => {});
  let resolveClosed!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve));

  socket.addEventListener('open', () => {
    for (const text of queue.splice(0)) socket.send(text);
    resolveReady();
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') {
      options.onProtocolError?.('Ignored a binary WebSocket message');
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      options.onProtocolError?.('Ignored a WebSocket message that is not JSON');
      return;
    }
    client.receive(message);
  });
  socket.addEventListener('close', () => {
    const reason = 'The connection to the inspector closed';
    client.close(reason);
    rejectReady(new Error(reason));
    resolveClosed(reason);
  });

  return {
    service: client.service,
    ready,
    closed,
    close: () => socket.close(1000, 'client closed'),
  };
}
