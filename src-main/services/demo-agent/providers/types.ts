/** One SSE event of a provider stream: the `event:` name and the JSON data. */
export interface ProviderEvent {
  event: string;
  data: Record<string, unknown>;
}

/**
 * A scripted provider stream. `cut` ends the body right after the last event (no terminal
 * event), as a dropped connection does.
 */
export interface ProviderScenario {
  id: string;
  title: string;
  summary: string;
  events: ProviderEvent[];
  cut?: boolean;
}

/** The SSE bytes of one event, as the provider APIs write them. */
export function providerSse(event: ProviderEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
