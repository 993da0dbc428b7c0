import type { ContractDef, ContractNames, Listener, ServiceOf, Unsubscribe } from './define';
import { dispatchCall, subscribeEvent, unwrapOutcome, type CallOutcome } from './dispatch';
import { index, literal, object, optional, string, variant, json, type Infer } from './schema';

/**
 * The contract as messages, for transports that carry one message at a time (the browser
 * host's WebSocket, a worker's MessagePort). Calls are matched to replies by id; a client
 * subscribes to an event when its first listener arrives and unsubscribes after its last,
 * so a window that shows no live status gets none.
 */
const Name = string({ nonEmpty: true, max: 100 });

export const ClientMessage = variant('t', {
  call: object({ id: index(), method: Name, arg: optional(json<unknown>()) }),
  subscribe: object({ event: Name }),
  unsubscribe: object({ event: Name }),
});

export const ServerMessage = variant('t', {
  result: object({
    id: index(),
    ok: literal(true, false),
    value: optional(json<unknown>()),
    error: optional(object({ message: string(), invalidArgument: optional(literal(true, false)) })),
  }),
  event: object({ event: Name, payload: json<unknown>() }),
});

export type ClientMessage = Infer<typeof ClientMessage>;
export type ServerMessage = Infer<typeof ServerMessage>;

export interface ContractServer {
  /** Feed one decoded message from the client. Malformed messages are reported, never thrown. */
  receive(message: unknown): void;
  /** The client went away: drop its subscriptions. */
  dispose(): void;
}

export interface ContractServerOptions {
  onProtocolError?: (message: string) => void;
}

export function createContractServer<C extends ContractDef>(
  contract: C,
  service: ServiceOf<C>,
  send: (message: ServerMessage) => void,
  options: ContractServerOptions = {},
): ContractServer {
  const report = options.onProtocolError ?? (() => {});
  const subscriptions = new Map<string, Unsubscribe>();
  let disposed = false;

  const reply = (id: number, outcome: CallOutcome): void => {
    if (disposed) return;
    send(
      outcome.ok
        ? { t: 'result', id, ok: true, value: outcome.value }
        : { t: 'result', id, ok: false, error: outcome.error },
    );
  };

  return {
    receive(raw) {
      if (disposed) return;
      let message: ClientMessage;
      try {
        message = ClientMessage.parse(raw, 'message');
      } catch (error) {
        report(error instanceof Error ? error.message : String(error));
        return;
      }
      switch (message.t) {
        case 'call':
          void dispatchCall(contract, service, message.method, message.arg).then((outcome) =>
            reply(message.id, outcome),
          );
          return;
        case 'subscribe': {
          if (subscriptions.has(message.event)) return;
          try {
            const unsubscribe = subscribeEvent(
              contract,
              service,
              message.event,
              (payload) => {
                if (!disposed) send({ t: 'event', event: message.event, payload });
              },
              report,
            );
            subscriptions.set(message.event, unsubscribe);
          } catch (error) {
            report(error instanceof Error ? error.message : String(error));
          }
          return;
        }
        case 'unsubscribe':
          subscriptions.get(message.event)?.();
          subscriptions.delete(message.event);
          return;
      }
    },
    dispose() {
      disposed = true;
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    },
  };
}

export interface ContractClient<C extends ContractDef> {
  readonly service: ServiceOf<C>;
  /** Feed one decoded message from the server. */
  receive(message: unknown): void;
  /** The connection is gone: pending calls reject with this reason. */
  close(reason: string): void;
}

export interface ContractClientOptions {
  /** Check results and event payloads against the contract (default true). */
  validate?: boolean;
  onProtocolError?: (message: string) => void;
}

export function createContractClient<C extends ContractDef>(
  contract: C,
  names: ContractNames<C>,
  send: (message: ClientMessage) => void,
  options: ContractClientOptions = {},
): ContractClient<C> {
  const validate = options.validate ?? true;
  const report = options.onProtocolError ?? (() => {});
  const pending = new Map<
    number,
    { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  const listeners = new Map<string, Set<Listener<unknown>>>();
  let nextId = 1;
  let closedReason: string | null = null;

  const service: Record<string, unknown> = {};
  for (const method of names.commands) {
    service[method] = (arg?: unknown) =>
      new Promise<unknown>((resolve, reject) => {
        if (closedReason !== null) {
          reject(new Error(closedReason));
          return;
        }
        const id = nextId++;
        pending.set(id, { method, resolve, reject });
        send({ t: 'call', id, method, arg });
      });
  }
  for (const name of names.events) {
    service[name] = (listener: Listener<unknown>): Unsubscribe => {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      if (set.size === 0 && closedReason === null) send({ t: 'subscribe', event: name });
      set.add(listener);
      return () => {
        const current = listeners.get(name);
        if (!current?.delete(listener)) return;
        if (current.size === 0 && closedReason === null) send({ t: 'unsubscribe', event: name });
      };
    };
  }

  const check = (key: string, value: unknown, kind: 'command' | 'event'): unknown => {
    if (!validate) return value;
    const def = contract[key];
    if (!def) throw new Error(`Unknown ${kind} '${key}'`);
    return def.kind === 'command' ? def.result.parse(value, key) : def.payload.parse(value, key);
  };

  return {
    service: service as ServiceOf<C>,
    receive(raw) {
      let message: ServerMessage;
      try {
        message = ServerMessage.parse(raw, 'message');
      } catch (error) {
        report(error instanceof Error ? error.message : String(error));
        return;
      }
      if (message.t === 'result') {
        const call = pending.get(message.id);
        if (!call) return;
        pending.delete(message.id);
        try {
          const value = unwrapOutcome(message);
          call.resolve(check(call.method, value, 'command'));
        } catch (error) {
          call.reject(error instanceof Error ? error : new Error(String(error)));
        }
        return;
      }
      const set = listeners.get(message.event);
      if (!set || set.size === 0) return;
      let payload: unknown;
      try {
        payload = check(message.event, message.payload, 'event');
      } catch (error) {
        report(
          `Dropped an invalid ${message.event} payload: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      for (const listener of [...set]) {
        try {
          listener(payload);
        } catch (error) {
          report(`A ${message.event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
    close(reason) {
      if (closedReason !== null) return;
      closedReason = reason;
      for (const call of pending.values()) call.reject(new Error(reason));
      pending.clear();
    },
  };
}
