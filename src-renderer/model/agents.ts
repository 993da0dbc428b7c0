import { agentsPhrase, nameAgents } from '../../src-shared/agents/names';
import type { AgentInfoPayload } from '../../src-shared/contract';
import { formatCount } from './format';

/** How one agent is shown: a colour, a short name, and where it sits in the spawn tree. */
export interface AgentLabel {
  readonly uuid: string;
  /** "main", "sub 1", "sub 1.2" … (src-shared/agents/names.ts) */
  readonly name: string;
  /** The first characters of the uuid, to tell agents apart in lists and tooltips. */
  readonly shortId: string;
  readonly colour: string;
  readonly depth: number;
  /** The depth views indent by, capped (MAX_INDENT). */
  readonly indent: number;
  readonly parent: string | null;
  readonly model?: string;
}

/**
 * Colours readable on both themes, ordered so that neighbours differ in hue. The first one
 * is the main agent's.
 */
export const AGENT_COLOURS = [
  '#4e8cff',
  '#e5a00d',
  '#2fb67c',
  '#d9534f',
  '#a36bf2',
  '#17a2b8',
  '#e0669e',
  '#8c9a2b',
  '#ff7f50',
  '#6f86a6',
] as const;

/** The colour of rows without an agent, and of agents not labelled yet. */
const NO_AGENT_COLOUR = '#888888';

/**
 * Labels for a session's agents: the names every part of the tool uses (src-shared/agents),
 * with a colour each in spawn order.
 */
export function labelAgents(
  agents: readonly AgentInfoPayload[],
  extra: readonly string[] = [],
): Map<string, AgentLabel> {
  const labels = new Map<string, AgentLabel>();
  const models = new Map(agents.map((a) => [a.uuid, a.model]));
  let coloured = 0;
  for (const agent of nameAgents(agents, extra).values()) {
    const model = models.get(agent.uuid);
    labels.set(agent.uuid, {
      ...agent,
      shortId: shortId(agent.uuid),
      // Rows of no agent are grey, and take no agent's colour.
      colour: agent.uuid === '' ? NO_AGENT_COLOUR : AGENT_COLOURS[coloured++ % AGENT_COLOURS.length]!,
      ...(model !== undefined ? { model } : {}),
    });
  }
  return labels;
}

/** The agents among labels: rows of no agent ("unattributed") are not one. */
export function agentCount(labels: ReadonlyMap<string, AgentLabel>): number {
  return labels.has('') ? labels.size - 1 : labels.size;
}

/** "2 agents", or "unattributed" when the only label is that of rows of no agent (agentsPhrase). */
export function agentsOf(labels: ReadonlyMap<string, AgentLabel>): string {
  return agentsPhrase(agentCount(labels), labels.has(''), formatCount);
}

/** Agents in tree order (each parent followed by its children), for filters and lanes. */
export function agentTreeOrder(labels: ReadonlyMap<string, AgentLabel>): AgentLabel[] {
  const children = new Map<string | null, AgentLabel[]>();
  for (const label of labels.values()) {
    const list = children.get(label.parent) ?? [];
    list.push(label);
    children.set(label.parent, list);
  }
  const ordered: AgentLabel[] = [];
  // Depth first with an explicit stack: a stream decides how deep sub-agents nest.
  const stack = [...(children.get(null) ?? [])].reverse();
  const seen = new Set<string>();
  for (let label = stack.pop(); label; label = stack.pop()) {
    ordered.push(label);
    if (seen.has(label.uuid)) continue;
    seen.add(label.uuid);
    for (const child of [...(children.get(label.uuid) ?? [])].reverse()) stack.push(child);
  }
  return ordered;
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids up to this long are shown whole; longer ones (not UUIDs) are cut, and say so. */
const SHORT_ID_CHARS = 12;

/**
 * An agent's id as a label beside its name: a UUID's first group (what logs show of one), any
 * other id whole when short (an A2A task id, an AG-UI run id), else its start and an ellipsis,
 * so that a cut id never reads as a whole one.
 */
export function shortId(uuid: string): string {
  if (uuid === '') return '(none)';
  if (UUID_SHAPE.test(uuid)) return uuid.slice(0, 8);
  return uuid.length > SHORT_ID_CHARS ? `${uuid.slice(0, SHORT_ID_CHARS - 1)}…` : uuid;
}

/** A label for an agent uuid that has none (before the agents list arrives). */
export function fallbackLabel(uuid: string): AgentLabel {
  return {
    uuid,
    name: shortId(uuid),
    shortId: shortId(uuid),
    colour: NO_AGENT_COLOUR,
    depth: 0,
    indent: 0,
    parent: null,
  };
}

/** `agent <uuid>` in a finding's message, the uuid up to a space, a comma, a period or a closing bracket. */
const AGENT_IN_MESSAGE = /\bagent (\S+?)(?=[\s,;:)]|\.(?:\s|$)|$)/g;

/**
 * A finding's message with each agent it names by uuid named as the views name it ("text
 * block #2 of sub 1"); an agent the session does not know keeps its uuid. The message as
 * written (with the uuids) stays the finding's detail.
 */
export function withAgentNames(message: string, labels: ReadonlyMap<string, Pick<AgentLabel, 'name'>>): string {
  if (!message.includes('agent ')) return message;
  return message.replace(AGENT_IN_MESSAGE, (whole, uuid: string) => labels.get(uuid)?.name ?? whole);
}
