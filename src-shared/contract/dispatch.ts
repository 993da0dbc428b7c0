import type { ContractDef, ServiceOf, Unsubscribe } from './define';
import { ContractError } from './schema';

/**
 * What a command call returns across a process boundary. Errors travel as data so the caller
 * gets the service's own message (Electron would otherwise wrap it in "Error invoking remote
 * method …"), and only plain data ever crosses.
 */
export type CallOutcome =
  { ok: true; value: unknown } | { ok: false; error: { message: string; invalidArgument?: boolean } };

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

/**
 * Runs one command on the service the way every transport must: the name must be a command
 * of the contract, the argument is checked by its schema before the service sees it, and the
 * result is checked before it leaves (a service bug must not leak non-plain data).
 */
export async function dispatchCall<C extends ContractDef>(
  contract: C,
  service: ServiceOf<C>,
  method: string,
  arg: unknown,
): Promise<CallOutcome> {
  const def = Object.hasOwn(contract, method) ? contract[method] : undefined;
  if (def?.kind !== 'command')
    return { ok: false, error: { message: `Unknown command '${method}'`, invalidArgument: true } };
  let parsed: unknown;
  try {
    parsed = def.arg.parse(arg, 'arg');
  } catch (error) {
    return {
      ok: false,
      error: { message: `Invalid argument for ${method}: ${errorMessage(error)}`, invalidArgument: true },
    };
  }
  try {
    const fn = service[method as keyof ServiceOf<C>] as unknown as (arg: unknown) => Promise<unknown>;
    const value = await fn.call(service, parsed);
    return { ok: true, value: def.result.parse(value, 'result') };
  } catch (error) {
    if (error instanceof ContractError)
      return { ok: false, error: { message: `${method} produced an invalid result: ${error.message}` } };
    return { ok: false, error: { message: errorMessage(error) } };
  }
}

/**
 * Subscribes to one event of the service, checking each payload against the contract before
 * handing it to `deliver` (invalid payloads are reported, never delivered).
 */
export function subscribeEvent<C extends ContractDef>(
  contract: C,
  service: ServiceOf<C>,
  name: string,
  deliver: (payload: unknown) => void,
  onInvalid: (message: string) => void = () => {},
): Unsubscribe {
  const def = Object.hasOwn(contract, name) ? contract[name] : undefined;
  if (def?.kind !== 'event') throw new Error(`Unknown event '${name}'`);
  const subscribe = service[name as keyof ServiceOf<C>] as unknown as (
    listener: (payload: unknown) => void,
  ) => Unsubscribe;
  return subscribe.call(service, (payload: unknown) => {
    let checked: unknown;
    try {
      checked = def.payload.parse(payload, name);
    } catch (error) {
      onInvalid(`Dropped an invalid ${name} payload: ${errorMessage(error)}`);
      return;
    }
    deliver(checked);
  });
}

/** Turns a CallOutcome back into a resolved value or a rejected Error on the caller's side. */
export function unwrapOutcome(outcome: unknown): unknown {
  if (typeof outcome !== 'object' || outcome === null || !('ok' in outcome))
    throw new Error('Malformed reply from main');
  const reply = outcome as CallOutcome;
  if (reply.ok) return reply.value;
  throw new Error(reply.error.message);
}
