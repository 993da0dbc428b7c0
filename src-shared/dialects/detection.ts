/**
 * Why a leg is decoded as its dialect: the evidence that chose it, one word each
 * (docs/dialects.md, "How a dialect is chosen"). The session header, `inspect` and `check`
 * say it after the dialect's label: "Decoded as OpenAI Responses — from the URL /v1/responses".
 */
export const DETECTION_BASES = {
  chosen: { says: 'chosen by you' },
  content: { says: "from the stream's own events" },
  header: { says: 'from the response header' },
  url: { says: 'from the URL' },
  fallback: { says: 'no dialect recognised this stream: its events are shown as they came' },
} as const satisfies Record<string, { says: string }>;

export type DetectionBasis = keyof typeof DETECTION_BASES;

export const DETECTION_BASIS_NAMES = Object.keys(DETECTION_BASES) as readonly DetectionBasis[];

/**
 * What a leg's events turned out to carry, for a dialect that takes any data (the fallback):
 * JSON objects, other text (plain lines, arrays, JSON that does not parse), or both. Its label
 * says which (DialectModule.dataLabels): plain text is not "JSON events".
 */
export const EVENT_DATA_NAMES = ['json', 'text', 'mixed'] as const;
export type EventData = (typeof EVENT_DATA_NAMES)[number];

/** The data of one more event, after the events before it carried `before` (undefined: none yet). */
export function addEventData(before: EventData | undefined, event: 'json' | 'text'): EventData {
  return before === undefined || before === event ? event : 'mixed';
}

/** How one leg's dialect was chosen: the basis, and what matched for a header or URL. */
export interface Detection {
  readonly by: DetectionBasis;
  /** The header (`x-vercel-ai-ui-message-stream: v1`) or the URL path ending (`/v1/responses`) that matched. */
  readonly detail?: string;
  /** What its events carried so far, from a dialect whose label depends on it (absent: no such dialect, or no event yet). */
  readonly data?: EventData;
}

/** "from the URL /v1/responses", "chosen by you": the reason as a phrase. */
export function detectionReason(detection: Detection): string {
  const says = DETECTION_BASES[detection.by].says;
  return detection.detail === undefined ? says : `${says} ${detection.detail}`;
}

/** "Decoded as OpenAI Responses — from the stream's own events": the sentence the UI and the CLI show. */
export function decodedAs(label: string, detection: Detection | undefined): string {
  return detection === undefined ? `Decoded as ${label}` : `Decoded as ${label} — ${detectionReason(detection)}`;
}
