/** The colour family a kind is shown in (the theme's `--t-*` variables), so the eye finds tool calls and errors. */
export type KindCategory = 'text' | 'thinking' | 'tool' | 'result' | 'meta' | 'error' | 'control' | 'other';

interface KindInfo {
  /**
   * `seed`: the 13 types of the JSON envelope specification (docs/protocols/json-envelopes.md);
   * `agent-base`: the types the newer `agent_base` server adds (MetaDelta stream types);
   * `provider`: types only the provider dialects emit, which the agent vocabulary has no word
   * for (docs/dialects.md). End-turn hooks can emit further arbitrary types; those stay unknown
   * and are reported as such, never dropped.
   */
  readonly origin: 'seed' | 'agent-base' | 'provider';
  readonly category: KindCategory;
  /** Deltas stream as the model produced them, without chunking; the block closes on an empty final marker. */
  readonly streamed?: true;
  /** The reassembled payload is JSON by construction: parsed once the block completes. */
  readonly jsonPayload?: true;
  /** A tool call or a tool result: what pairs calls with their results. */
  readonly tool?: 'call' | 'result';
  /** Never a block of its own: attaches to a text block (citations) or a tool_result block (images). */
  readonly attaches?: true;
}

/**
 * Every envelope kind the inspector knows, one entry each. The decoder's known types, the
 * reconstruction rules (kinds.ts), the filter's `type` values and the views' colours read
 * this table. tool_result is not JSON by construction (plain text or JSON, the server does not
 * say which), nor server_tool_result (a JSON string of a Python repr).
 */
export const ENVELOPE_KINDS = {
  meta_init: { origin: 'seed', category: 'meta', jsonPayload: true },
  thinking: { origin: 'seed', category: 'thinking', streamed: true },
  text: { origin: 'seed', category: 'text', streamed: true },
  citation: { origin: 'seed', category: 'text', attaches: true },
  tool_call: { origin: 'seed', category: 'tool', jsonPayload: true, tool: 'call' },
  server_tool_call: { origin: 'seed', category: 'tool', jsonPayload: true, tool: 'call' },
  tool_result: { origin: 'seed', category: 'result', tool: 'result' },
  tool_result_image: { origin: 'seed', category: 'result', attaches: true },
  server_tool_result: { origin: 'seed', category: 'result', tool: 'result' },
  awaiting_frontend_tools: { origin: 'seed', category: 'tool', jsonPayload: true },
  meta_files: { origin: 'seed', category: 'meta', jsonPayload: true },
  error: { origin: 'seed', category: 'error', jsonPayload: true },
  meta_final: { origin: 'seed', category: 'meta', jsonPayload: true },
  rollback: { origin: 'agent-base', category: 'other', jsonPayload: true },
  aborted: { origin: 'agent-base', category: 'other', jsonPayload: true },
  meta_end_turn_validation: { origin: 'agent-base', category: 'meta', jsonPayload: true },
  compaction_start: { origin: 'agent-base', category: 'other', jsonPayload: true },
  compaction_end: { origin: 'agent-base', category: 'other', jsonPayload: true },
  meta_todo: { origin: 'agent-base', category: 'meta', jsonPayload: true },
  refusal: { origin: 'provider', category: 'other', streamed: true },
  reasoning_summary: { origin: 'provider', category: 'other', streamed: true },
  message: { origin: 'provider', category: 'other', jsonPayload: true },
  redacted_thinking: { origin: 'provider', category: 'thinking' },
  custom_tool_call: { origin: 'provider', category: 'tool', tool: 'call' },
  /** AG-UI's shared agent state, whole, as it stood after a STATE_SNAPSHOT or STATE_DELTA. */
  state: { origin: 'provider', category: 'meta', jsonPayload: true },
} as const satisfies Record<string, KindInfo>;

export type EnvelopeKind = keyof typeof ENVELOPE_KINDS;

/**
 * Each kind's name, read from the table: code that names one kind writes `KIND.tool_call`, so a
 * typo or a renamed kind is a compile error instead of a comparison that is silently never true.
 */
export const KIND = Object.fromEntries(Object.keys(ENVELOPE_KINDS).map((kind) => [kind, kind])) as {
  readonly [K in EnvelopeKind]: K;
};

/** The table's entry for a kind; undefined for a kind it does not know. */
export function kindInfo(kind: string): KindInfo | undefined {
  return Object.hasOwn(ENVELOPE_KINDS, kind) ? ENVELOPE_KINDS[kind as EnvelopeKind] : undefined;
}

/** The kinds whose entry has `test`, in the table's order. */
export function kindsWhere(test: (info: KindInfo) => boolean): EnvelopeKind[] {
  return (Object.keys(ENVELOPE_KINDS) as EnvelopeKind[]).filter((kind) => test(ENVELOPE_KINDS[kind]));
}

/** The 13 message types of the JSON envelope specification (docs/protocols/json-envelopes.md). */
export const SEED_ENVELOPE_TYPES = kindsWhere((k) => k.origin === 'seed');

/** Types the newer `agent_base` server adds (MetaDelta stream types). */
export const AGENT_BASE_ENVELOPE_TYPES = kindsWhere((k) => k.origin === 'agent-base');

const KNOWN = new Set<string>(kindsWhere((k) => k.origin !== 'provider'));

/** A type of the agent wire vocabulary (the JSON envelope dialect reports any other as unknown). */
export function isKnownEnvelopeType(type: string): boolean {
  return KNOWN.has(type);
}

const STREAMED = new Set<string>(kindsWhere((k) => k.streamed === true));

/** Upstream's text and thinking, and the provider dialects' refusals and reasoning summaries. */
export function isStreamedEnvelopeType(type: string): boolean {
  return STREAMED.has(type);
}
