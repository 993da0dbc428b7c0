import type { DialectModule } from '../types';
import { createJsonEventsDecoder } from './decoder';

/**
 * The registry's fallback: what a stream no dialect claims is decoded as. It never claims a
 * stream itself (its `detect` is always false); the user can still choose it ("Decode as",
 * `--format json-events`) to see any stream as plain events.
 */
export const jsonEventsDialect: DialectModule<'json-events'> = {
  id: 'json-events',
  // Before its events are known (the "Decode as" choice) it is either; after, what they carried.
  label: 'JSON or text events',
  dataLabels: { json: 'JSON events', text: 'text events', mixed: 'JSON and text events' },
  detect: () => false,
  create: createJsonEventsDecoder,
  syntax: 'json',
  terminator: 'none',
};
