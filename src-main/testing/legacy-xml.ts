import { createLegacyXmlDecoder } from '../../src-shared/dialects/legacy-xml/decoder';
import { htmlEscape } from '../../src-shared/dialects/legacy-xml/entities';
import type { DialectOptions } from '../../src-shared/dialects/types';
import { envelopeShapes, runDialectOnItems, type DialectRun } from './dialects';

/* What the legacy XML dialect's tests share (src-shared/dialects/legacy-xml/decoder*.test.ts). */

/** The root agent's uuid the tests' meta_init names. */
export const ROOT = '11111111-1111-4111-8111-111111111111';

/** The items, one SSE event each, through the legacy XML decoder. */
export const decodeXml = (items: readonly string[], options?: DialectOptions): DialectRun =>
  runDialectOnItems(createLegacyXmlDecoder, items, options);

export const shapes = (run: DialectRun): ReturnType<typeof envelopeShapes> => envelopeShapes(run.envelopes);

/** A meta_init item announcing these fields. */
export const metaInit = (json: object): string => `<meta_init data="${htmlEscape(JSON.stringify(json))}"></meta_init>`;
