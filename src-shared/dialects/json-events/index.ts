import type { DialectModule } from '../types';
import { createJsonEventsDecoder } from './decoder';

/**
 * The registry's fallback: what a stream no dialect claims is decoded as. It never claims a
 * stream itself (its `detect` is always false); the user can still choose it ("Decode as",
 * `--format json-events`) to see any stream as plain events.
 */
export const jsonEventsDialect: DialectModule<'json-events'> = {
  id: 'json-events',
  label: 'JSON events',
  detect: () => false,
  create: createJsonEventsDecoder,
  syntax: 'json',
  terminator: 'none',
};
