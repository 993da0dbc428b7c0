import { agUiDialect } from './ag-ui';
import { aiSdkUiDialect } from './ai-sdk-ui';
import { anthropicMessagesDialect } from './anthropic-messages';
import { anthropicRawDialect } from './anthropic-raw';
import { geminiDialect } from './gemini';
import { jsonEnvelopeDialect } from './json-envelope';
import { jsonEventsDialect } from './json-events';
import { jsonRpcDialect } from './json-rpc';
import { legacyXmlDialect } from './legacy-xml';
import { ollamaDialect } from './ollama';
import { openAiChatDialect } from './openai-chat';
import { openAiResponsesDialect } from './openai-responses';
import { segmentEventsDialect } from './segment-events';
import type { Detection } from './detection';
import type { SniffedFrame } from './sniff';
import type { DialectModule } from './types';

/**
 * Every wire dialect the inspector decodes, in the order the connect form and the CLI list
 * them. Adding a dialect is a folder with its module and one line here (docs/dialects.md);
 * the `DialectId` type, the contract's literals, the CLI's `--format` values, the connect
 * form and the session store all derive from this list.
 */
export const DIALECTS = [
  jsonEnvelopeDialect,
  legacyXmlDialect,
  anthropicRawDialect,
  anthropicMessagesDialect,
  openAiResponsesDialect,
  segmentEventsDialect,
  openAiChatDialect,
  agUiDialect,
  geminiDialect,
  jsonEventsDialect,
  jsonRpcDialect,
  aiSdkUiDialect,
  ollamaDialect,
] as const;

export type DialectId = (typeof DIALECTS)[number]['id'];

/** A set of dialect modules the session decoder detects and decodes with. */
export interface DialectRegistry {
  readonly modules: readonly DialectModule[];
  readonly ids: readonly string[];
  /**
   * What a stream is decoded as when no dialect claims its first events and nothing of its
   * exchange (URL, headers) names one: a dialect that claims nothing it cannot know.
   */
  readonly fallback: DialectModule;
  get(id: string): DialectModule | undefined;
  /** The dialect that claims this frame, if one does. */
  detect(frame: SniffedFrame): DialectModule | undefined;
  /** The dialects that may take over a leg that is being decoded as `id` (see DialectModule.continues). */
  successorsOf(id: string): readonly DialectModule[];
}

export function createDialectRegistry(modules: readonly DialectModule[], fallbackId: string): DialectRegistry {
  const byId = new Map<string, DialectModule>();
  for (const module of modules) {
    if (byId.has(module.id)) throw new Error(`dialect ${module.id} is registered twice`);
    byId.set(module.id, module);
  }
  const fallback = byId.get(fallbackId);
  if (!fallback) throw new Error(`fallback dialect ${fallbackId} is not registered`);
  for (const module of modules) {
    for (const id of module.continues ?? [])
      if (!byId.has(id)) throw new Error(`dialect ${module.id} continues ${id}, which is not registered`);
  }
  const successors = new Map<string, DialectModule[]>(
    modules.map((m) => [m.id, modules.filter((other) => other.continues?.includes(m.id))]),
  );
  return {
    modules,
    ids: modules.map((m) => m.id),
    fallback,
    get: (id) => byId.get(id),
    detect: (frame) => modules.find((m) => m.detect(frame)),
    successorsOf: (id) => successors.get(id) ?? [],
  };
}

/** The registry of the built-in dialects; generic JSON events are the fallback. */
export const DIALECT_REGISTRY: DialectRegistry = createDialectRegistry(DIALECTS, 'json-events');

/** Every built-in dialect id, for schemas and option lists. */
export const DIALECT_IDS = DIALECTS.map((d) => d.id) as unknown as readonly [DialectId, ...DialectId[]];

export function isDialectId(value: string): value is DialectId {
  return (DIALECT_IDS as readonly string[]).includes(value);
}

/**
 * What a session decoded as `format` is called, in the header, the Blocks view and `inspect`:
 * its dialect's label, or for a dialect labelled by its events' data, the label of what they
 * carried ("text events" for plain text the fallback decoded); an unknown id as it is.
 */
export function dialectLabel(
  format: string,
  detection: Detection | undefined,
  registry: DialectRegistry = DIALECT_REGISTRY,
): string {
  const module = registry.get(format);
  if (!module) return format;
  const data = detection?.data;
  return (data !== undefined ? module.dataLabels?.[data] : undefined) ?? module.label;
}
