import type { DemoAgentInfo } from '../../../src-shared/contract/payloads';
import { parseJsonObject } from '../../../src-shared/json/values';

/**
 * A live session's name, from what was connected to: the demo agent's scenario and format
 * ("Demo agent: Tour · json"), or the method, host and path with what the body or query says
 * about the run ("POST api.example.com/agent/run · agent_subagents · xml"). Never from an
 * earlier request: a preset's name must not stick to another URL.
 */

export interface TitleRequest {
  method: string;
  url: URL;
  /** The request body as sent (JSON or not), or null. */
  body: string | null;
}

/** How the demo agent would pick the scenario for a prompt (its keyword rules). */
export type ScenarioOfPrompt = (prompt: unknown) => { id: string; title: string };

const MAX_PART = 40;

export function liveSessionTitle(
  request: TitleRequest,
  demo: { info: NonNullable<DemoAgentInfo>; scenarioOf: ScenarioOfPrompt } | null,
): string {
  const body = request.body === null ? undefined : parseJsonObject(request.body);
  const field = (name: string): string | undefined => {
    const fromQuery = request.url.searchParams.get(name);
    if (fromQuery) return fromQuery;
    const value = body?.[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const format = field('format');
  if (demo && sameOrigin(request.url, demo.info.baseUrl) && request.url.pathname.endsWith('/agent/run')) {
    const asked = field('scenario');
    const scenario = demo.info.scenarios.find((s) => s.id === asked) ?? demo.scenarioOf(body?.['user_prompt'] ?? '');
    return `Demo agent: ${scenario.title} · ${format ?? 'json'}`;
  }
  const parts = [
    `${request.method} ${request.url.host}${request.url.pathname}`,
    field('scenario') ?? field('agent_type'),
    format,
  ];
  return parts
    .filter((part): part is string => part !== undefined)
    .map((part) => (part.length > MAX_PART * 2 ? `${part.slice(0, MAX_PART * 2)}…` : part))
    .join(' · ');
}

function sameOrigin(url: URL, base: string): boolean {
  try {
    return new URL(base).origin === url.origin;
  } catch {
    return false;
  }
}
