import { nameAgents } from '../agents/names';
import type { AgentInfo, Block } from '../reconstruct/types';
import { KIND } from '../envelope/vocabulary';

/**
 * A session's conversation as Markdown, for reading and pasting into a bug report: the
 * blocks in the order they started, under the name of the agent that produced them. Text is
 * the agent's own Markdown and goes in as it is; everything else (thinking, tool calls and
 * results, errors, prompts) goes in quoted or fenced so it cannot change the document around
 * it. Blocks cut off by the end of the stream say so.
 */

export interface TranscriptInput {
  title: string;
  agents: readonly AgentInfo[];
  blocks: readonly Block[];
}

/** Metadata blocks: their facts are in the agents list at the top, not in the conversation. */
const META_PREFIX = 'meta';

export function buildTranscript({ title, agents, blocks }: TranscriptInput): string {
  const named = nameAgents(
    agents,
    blocks.map((b) => b.agent),
  );
  const names = new Map([...named.values()].map((a) => [a.uuid, a.name]));
  const out: string[] = [`# ${oneLine(title)}`, ''];
  if (agents.length > 0) {
    for (const agent of agents) {
      const facts = [
        agent.model,
        agent.parent !== null ? `spawned by ${names.get(agent.parent) ?? agent.parent}` : null,
      ].filter((x): x is string => !!x);
      out.push(
        `- **${names.get(agent.uuid)}** \`${agent.uuid}\`${facts.length > 0 ? ` — ${oneLine(facts.join(', '))}` : ''}`,
      );
      if (agent.userQuery) out.push(`  - asked: ${oneLine(agent.userQuery)}`);
    }
    out.push('');
  }
  let current: string | null = null;
  const ordered = [...blocks].sort((a, b) => (a.envelopes[0] ?? 0) - (b.envelopes[0] ?? 0) || a.id - b.id);
  for (const block of ordered) {
    if (block.kind.startsWith(META_PREFIX)) continue;
    if (block.agent !== current) {
      current = block.agent;
      out.push(`## ${names.get(block.agent) ?? block.agent}`, '');
    }
    out.push(...blockLines(block), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function blockLines(block: Block): string[] {
  const lines: string[] = [];
  const label = block.name ? `${block.kind} \`${oneLine(block.name).replaceAll('`', "'")}\`` : block.kind;
  if (block.kind === KIND.text) lines.push(block.content);
  else if (block.kind === KIND.thinking || block.kind === KIND.redacted_thinking) {
    lines.push(`> *${block.kind}*`, '>', ...block.content.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)));
  } else {
    lines.push(
      `**${label}**${block.toolId ? ` (${oneLine(block.toolId)})` : ''}`,
      '',
      ...fenced(displayContent(block), block.parsed !== undefined ? 'json' : ''),
    );
  }
  if (block.citations.length > 0) {
    lines.push('', ...block.citations.map((c, i) => `[${i + 1}] “${oneLine(c.citedText)}”${citationSource(c.fields)}`));
  }
  if (block.status !== 'complete')
    lines.push(
      '',
      block.status === 'abandoned'
        ? '*(abandoned: replayed by a later block)*'
        : '*(cut off: the stream ended before this block completed)*',
    );
  return lines;
}

/** Where a citation points: its document title or web page, as far as the wire said. */
function citationSource(fields: Record<string, unknown>): string {
  const title = fields['document_title'] ?? fields['title'];
  const url = fields['url'];
  const parts = [
    typeof title === 'string' ? oneLine(title) : null,
    typeof url === 'string' && /^https?:\/\//.test(url) ? `<${url.replace(/[<>\s]/g, encodeURIComponent)}>` : null,
  ];
  const shown = parts.filter((x): x is string => x !== null);
  return shown.length > 0 ? ` — ${shown.join(' ')}` : '';
}

/** JSON payloads pretty-printed when they parsed; the raw content otherwise. */
function displayContent(block: Block): string {
  if (block.parsed === undefined) return block.content;
  try {
    return JSON.stringify(block.parsed, null, 2) ?? block.content;
  } catch {
    return block.content;
  }
}

/** A fenced code block whose fence is longer than any run of backticks inside. */
export function fenced(content: string, language = ''): string[] {
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, content, fence];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
