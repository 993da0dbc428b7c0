import type { Schema } from './schema';

/**
 * A contract is a service interface written as data (VS Code's ProxyChannel idea): each key
 * is either a command (one argument in, one result out, a Promise on the caller's side) or an
 * event (`onXxx`: the caller subscribes a listener and gets an unsubscribe function back).
 * Transports derive their channel names and allowlists from the keys, so no channel string
 * is written twice, and validate every payload with the schemas.
 */
export interface CommandDef<A, R> {
  readonly kind: 'command';
  readonly arg: Schema<A>;
  readonly result: Schema<R>;
}

export interface EventDef<P> {
  readonly kind: 'event';
  readonly payload: Schema<P>;
}

export type ContractDef = Record<string, CommandDef<unknown, unknown> | EventDef<unknown>>;

export function command<A, R>(arg: Schema<A>, result: Schema<R>): CommandDef<A, R> {
  return { kind: 'command', arg, result };
}

export function event<P>(payload: Schema<P>): EventDef<P> {
  return { kind: 'event', payload };
}

export type Unsubscribe = () => void;
export type Listener<P> = (payload: P) => void;

type CommandFn<A, R> = [A] extends [void] ? () => Promise<R> : (arg: A) => Promise<R>;

/** The service interface a contract describes: what main implements and the renderer calls. */
export type ServiceOf<C extends ContractDef> = {
  [K in keyof C]: C[K] extends CommandDef<infer A, infer R>
    ? CommandFn<A, R>
    : C[K] extends EventDef<infer P>
      ? (listener: Listener<P>) => Unsubscribe
      : never;
};

export type CommandName<C extends ContractDef> = {
  [K in keyof C]: C[K] extends CommandDef<unknown, unknown> ? K : never;
}[keyof C] &
  string;
export type EventName<C extends ContractDef> = { [K in keyof C]: C[K] extends EventDef<unknown> ? K : never }[keyof C] &
  string;

export interface ContractNames<C extends ContractDef> {
  readonly commands: readonly CommandName<C>[];
  readonly events: readonly EventName<C>[];
}

const EVENT_KEY = /^on[A-Z]/;

/**
 * Splits a contract into its command and event names, checking the naming rule that makes
 * a service interface readable: events are `onXxx`, commands never are.
 */
export function contractNames<C extends ContractDef>(contract: C): ContractNames<C> {
  const commands: string[] = [];
  const events: string[] = [];
  for (const [key, def] of Object.entries(contract)) {
    const looksLikeEvent = EVENT_KEY.test(key);
    if (def.kind === 'event' && !looksLikeEvent) throw new Error(`Contract event '${key}' must be named onXxx`);
    if (def.kind === 'command' && looksLikeEvent)
      throw new Error(`Contract command '${key}' must not be named like an event`);
    (def.kind === 'event' ? events : commands).push(key);
  }
  return { commands: commands as CommandName<C>[], events: events as EventName<C>[] };
}

/** One prefix for every channel of a contract; a channel is `prefix + key`. */
export function channelOf(prefix: string, key: string): string {
  return `${prefix}${key}`;
}
