import { at, event, indexes, parse, type FaultKind } from '../../testing/faults-kit';

/**
 * The fallback's fault for the fault suite (src-shared/testing/faults.ts): a JSON object
 * event of a feed no dialect claims (resources/fixtures/unknown) cut short by its last
 * character, which the decoder must report at that event.
 */
export const JSON_EVENTS_FAULTS: readonly FaultKind[] = [
  {
    rule: 'json-events.invalid-json',
    name: 'a JSON object event cut short',
    dialects: ['json-events'],
    sites: (events) => indexes(events, (data) => parse(data) !== null),
    apply: (events, site) => at(events, site, event((events[site] as string).slice(0, -1))),
  },
];
