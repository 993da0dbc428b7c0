import { canonicalJson, isJsonObject, jsonEqual, parseJsonPayload } from '../json/values';
import { MESSAGE_TIMING_FIELDS } from '../dialects/provider/message-summary';
import { hasJsonPayload, isToolCallKind } from '../envelope/kinds';
import { KIND } from '../envelope/vocabulary';
import type { Block, Citation } from '../reconstruct/types';
import { NORMALISATIONS, type NormalisationId } from './normalisations';
import { dumpsDefaultStr } from './python-repr';
import { rewriteStrings, withoutThinkingSignatures, type RunPairing } from './runs';
import type { SideProfile } from './types';
import { stringifyJson } from '../json/tree';

export interface CompareContext {
  left: SideProfile;
  right: SideProfile;
  /** Set when the sides are two runs: their agent uuids, paired (runs.ts). */
  runs: RunPairing | null;
}

/** Both sides come from the upstream agent server, one from each of its generations. */
function differentGenerations({ left, right }: CompareContext): boolean {
  return left.generation !== undefined && right.generation !== undefined && left.generation !== right.generation;
}

export interface Comparison {
  equal: boolean;
  /** What differs ("arguments differ"), or "equal" / "equal after normalising …". */
  reason: string;
  normalisations: NormalisationId[];
  /** The blocks as compared, for a diff editor. */
  leftText: string;
  rightText: string;
  /** Aspects that differ: content, citations, images, name, tool id, status. */
  differences: string[];
}

/** What one aspect of a block pair looks like after normalisation. */
interface Aspect {
  name: string;
  left: unknown;
  right: unknown;
  leftText: string;
  rightText: string;
}

/** Collects normalisations in the order they were applied, once each. */
class Applied {
  readonly ids: NormalisationId[] = [];
  add(id: NormalisationId): void {
    if (!this.ids.includes(id)) this.ids.push(id);
  }
}

/**
 * Compares two aligned blocks of the same kind: their content with only the normalisations of
 * NORMALISATIONS, and their name, tool id and status as they are.
 */
export function compareBlocks(left: Block, right: Block, context: CompareContext): Comparison {
  const applied = new Applied();
  const aspects: Aspect[] = [];
  if (left.kind === KIND.server_tool_result && right.kind === KIND.server_tool_result)
    aspects.push(serverToolResult(left, right, context, applied));
  else if (hasJsonPayload(left.kind) || (left.parsed !== undefined && right.parsed !== undefined))
    aspects.push(jsonPayload(left, right, context, applied));
  else aspects.push(plainContent(left, right, context, applied));
  if (left.citations.length + right.citations.length > 0) aspects.push(citations(left, right, context, applied));
  const images = imageAspect(left, right, context, applied);
  if (images) aspects.push(images);

  const differences = aspects.filter((a) => !jsonEqual(a.left, a.right)).map((a) => a.name);
  if (left.kind !== right.kind) differences.unshift('kind');
  if ((left.name ?? '') !== (right.name ?? '')) differences.push('name');
  if ((left.toolId ?? '') !== (right.toolId ?? '')) differences.push('tool id');
  if (left.status !== right.status) differences.push(`status (${left.status} vs ${right.status})`);

  const leftText = aspects
    .map((a) => a.leftText)
    .filter((t) => t !== '')
    .join('\n\n');
  const rightText = aspects
    .map((a) => a.rightText)
    .filter((t) => t !== '')
    .join('\n\n');
  const equal = differences.length === 0;
  return {
    equal,
    reason: describe(equal, differences, applied.ids),
    normalisations: applied.ids,
    leftText,
    rightText,
    differences,
  };
}

export function describe(
  equal: boolean,
  differences: readonly string[],
  normalisations: readonly NormalisationId[],
): string {
  if (!equal) {
    const singular = differences.length === 1 && !differences[0]?.endsWith('s');
    return `${differences.join(', ')} ${singular ? 'differs' : 'differ'}`;
  }
  if (normalisations.length === 0) return 'equal';
  return `equal after normalising ${normalisations.map((id) => NORMALISATIONS[id].label).join(', ')}`;
}

function contentName(kind: string): string {
  // A call whose payload is JSON by construction carries arguments (a custom tool call's input is free text).
  if (isToolCallKind(kind) && hasJsonPayload(kind)) return 'arguments';
  if (kind === KIND.awaiting_frontend_tools) return 'pending tools';
  return 'content';
}

/** tool_result, text, thinking and unknown kinds: the content string as sent. */
function plainContent(left: Block, right: Block, context: CompareContext, applied: Applied): Aspect {
  let l = runUuids(left.content, context, applied);
  let r = right.content;
  if (left.kind === KIND.tool_result && context.left.xmlItems !== context.right.xmlItems) {
    const nl = xmlToolResultNewlines(l);
    const nr = xmlToolResultNewlines(r);
    if ((nl !== l || nr !== r) && l !== r) applied.add('xml-tool-result-newlines');
    l = nl;
    r = nr;
  }
  return { name: contentName(left.kind), left: l, right: r, leftText: l, rightText: r };
}

/**
 * Two runs: the left side's agent uuids read as their right partners' in a content string or
 * a parsed payload (every string in it).
 */
function runUuids<T>(value: T, context: CompareContext, applied: Applied): T {
  const runs = context.runs;
  if (!runs) return value;
  let changed = false;
  const substitute = (text: string): string => {
    const out = runs.substitute(text);
    if (out !== text) changed = true;
    return out;
  };
  const out = (typeof value === 'string' ? substitute(value) : rewriteStrings(value, substitute)) as T;
  if (changed) applied.add('run-agent-uuids');
  return out;
}

/** What `_escape_tool_result_cdata` cannot preserve: CR, CRLF and a literal backslash-n all become LF. */
function xmlToolResultNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replaceAll('\\n', '\n');
}

/** The reassembled payload as a JSON value, when it is one. */
function payloadValue(block: Block): { ok: true; value: unknown } | { ok: false } {
  if (block.parsed !== undefined) return { ok: true, value: block.parsed };
  return parseJsonPayload(block.content);
}

function jsonPayload(left: Block, right: Block, context: CompareContext, applied: Applied): Aspect {
  const name = contentName(left.kind);
  const lp = payloadValue(left);
  const rp = payloadValue(right);
  if (!lp.ok || !rp.ok) {
    const text = runUuids(left.content, context, applied);
    return { name, left: text, right: right.content, leftText: text, rightText: right.content };
  }
  let l = runUuids(lp.value, context, applied);
  let r = rp.value;
  if (context.runs && (left.kind === KIND.meta_init || left.kind === KIND.meta_final)) {
    const ls = withoutThinkingSignatures(l);
    const rs = withoutThinkingSignatures(r);
    if (!jsonEqual(ls.signatures, rs.signatures)) applied.add('thinking-signature');
    l = ls.value;
    r = rs.value;
  }
  if (left.kind === KIND.meta_init && isJsonObject(l) && isJsonObject(r) && l['format'] !== r['format']) {
    l = without(l, ['format']);
    r = without(r, ['format']);
    applied.add('meta-format-field');
  }
  if (
    (left.kind === KIND.meta_init || left.kind === KIND.meta_final) &&
    isJsonObject(l) &&
    isJsonObject(r) &&
    historyKeysDiffer(l, r)
  ) {
    l = without(l, HISTORY_KEYS);
    r = without(r, HISTORY_KEYS);
    applied.add('history-key');
  }
  if (left.kind === KIND.meta_final && differentGenerations(context) && isJsonObject(l) && isJsonObject(r)) {
    l = metaFinalCore(l);
    r = metaFinalCore(r);
    applied.add('meta-final-generation');
  }
  if (left.kind === KIND.message && isJsonObject(l) && isJsonObject(r)) {
    const lt = without(l, MESSAGE_TIMING_FIELDS);
    const rt = without(r, MESSAGE_TIMING_FIELDS);
    if (!jsonEqual(l, r) && jsonEqual(lt, rt)) applied.add('timing-fields');
    l = lt;
    r = rt;
  }
  if (left.kind === KIND.awaiting_frontend_tools) {
    const lt = unwrapTools(l);
    const rt = unwrapTools(r);
    if (lt !== l || rt !== r) {
      if (Array.isArray(l) !== Array.isArray(r)) applied.add('awaiting-tools-object');
      l = lt;
      r = rt;
    }
  }
  if (
    left.content !== right.content &&
    jsonEqual(l, r) &&
    (applied.ids.length === 0 || encodingDiffers(left.content, right.content, l, r))
  ) {
    applied.ids.unshift('json-value');
  }
  return { name, left: l, right: r, leftText: canonicalJson(l), rightText: canonicalJson(r) };
}

/**
 * Whether two JSON texts are written differently (not just holding different values): spaces
 * after separators, \\u escapes against raw non-ASCII, or key order.
 */
function encodingDiffers(leftText: string, rightText: string, left: unknown, right: unknown): boolean {
  const a = jsonTextStyle(leftText);
  const b = jsonTextStyle(rightText);
  if (a.spaced !== b.spaced) return true;
  if ((a.asciiEscapes && b.rawNonAscii) || (b.asciiEscapes && a.rawNonAscii)) return true;
  return stringifyJson(left) !== stringifyJson(right);
}

/** One scan of a JSON text: separators followed by a space; non-ASCII escaped or raw. */
export function jsonTextStyle(text: string): { spaced: boolean; asciiEscapes: boolean; rawNonAscii: boolean } {
  const style = { spaced: false, asciiEscapes: false, rawNonAscii: false };
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* backslash */) {
        if (text[i + 1] === 'u' && Number.parseInt(text.slice(i + 2, i + 6), 16) >= 0x80) style.asciiEscapes = true;
        i++;
      } else if (c === 0x22 /* " */) inString = false;
      else if (c >= 0x80) style.rawNonAscii = true;
    } else if (c === 0x22) inString = true;
    else if ((c === 0x3a /* : */ || c === 0x2c) /* , */ && text.charCodeAt(i + 1) === 0x20) style.spaced = true;
  }
  return style;
}

const HISTORY_KEYS = ['message_history', 'conversation_history', 'conversation_log'];

/** One side carries the legacy history and the other the agent_base conversation_log. */
function historyKeysDiffer(l: Record<string, unknown>, r: Record<string, unknown>): boolean {
  const legacy = (o: Record<string, unknown>): boolean => 'message_history' in o || 'conversation_history' in o;
  return (legacy(l) && 'conversation_log' in r) || ('conversation_log' in l && legacy(r));
}

function without(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!keys.includes(key)) out[key] = item;
  return out;
}

/** The meta_final fields both server generations send with the same meaning. */
function metaFinalCore(value: Record<string, unknown>): Record<string, unknown> {
  const usage = isJsonObject(value['cumulative_usage']) ? value['cumulative_usage'] : {};
  return {
    stop_reason: value['stop_reason'],
    total_steps: value['total_steps'],
    input_tokens: usage['input_tokens'],
    output_tokens: usage['output_tokens'],
  };
}

function unwrapTools(value: unknown): unknown {
  return isJsonObject(value) && Array.isArray(value['tools']) && Object.keys(value).length === 1
    ? value['tools']
    : value;
}

/**
 * json/xml send a JSON string (or array of strings) holding the SDK objects' Python repr; raw
 * sends the objects. When the forms differ, the structured side is rendered as Python would.
 */
function serverToolResult(left: Block, right: Block, context: CompareContext, applied: Applied): Aspect {
  const lp = parseJsonPayload(left.content);
  const rp = parseJsonPayload(right.content);
  if (!lp.ok || !rp.ok)
    return {
      name: 'content',
      left: left.content,
      right: right.content,
      leftText: left.content,
      rightText: right.content,
    };
  let l = runUuids(lp.value, context, applied);
  let r = rp.value;
  if (isReprForm(l) !== isReprForm(r)) {
    l = dumpsDefaultStr(l);
    r = dumpsDefaultStr(r);
    applied.add('server-tool-result-repr');
  } else if ((context.runs?.substitute(left.content) ?? left.content) !== right.content) {
    applied.add('json-value');
  }
  return { name: 'content', left: l, right: r, leftText: reprText(l), rightText: reprText(r) };
}

/** A JSON string, or an array of them: what json.dumps(default=str) made of SDK objects. */
function isReprForm(value: unknown): boolean {
  return (
    typeof value === 'string' || (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
  );
}

function reprText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n');
  return canonicalJson(value);
}

interface CitationValue {
  type: string;
  text: string;
  fields: Record<string, unknown>;
}

function citations(left: Block, right: Block, context: CompareContext, applied: Applied): Aspect {
  const xmlLeft = context.left.xmlText;
  const xmlRight = context.right.xmlText;
  let l: CitationValue[] = left.citations.map(citationValue);
  let r: CitationValue[] = right.citations.map(citationValue);
  if (xmlLeft !== xmlRight) {
    const nl = l.map(dropEmptyFields);
    const nr = r.map(dropEmptyFields);
    if (!jsonEqual(nl, l) || !jsonEqual(nr, r)) applied.add('xml-citation-empty');
    l = nl;
    r = nr;
  }
  return { name: 'citations', left: l, right: r, leftText: citationText(l), rightText: citationText(r) };
}

function citationValue(c: Citation): CitationValue {
  return { type: c.citationType, text: c.citedText, fields: c.fields };
}

function dropEmptyFields(c: CitationValue): CitationValue {
  return {
    ...c,
    fields: without(
      c.fields,
      Object.keys(c.fields).filter((k) => c.fields[k] === ''),
    ),
  };
}

function citationText(list: readonly CitationValue[]): string {
  return list
    .map((c) => `[citation ${c.type}] ${JSON.stringify(c.text)} ${canonicalJson(c.fields).replace(/\n\s*/g, ' ')}`)
    .join('\n');
}

function imageAspect(left: Block, right: Block, context: CompareContext, applied: Applied): Aspect | null {
  let l = left.images.map((i) => `${i.mediaType} ${i.src}`);
  let r = right.images.map((i) => `${i.mediaType} ${i.src}`);
  const agentBaseDropped =
    differentGenerations(context) &&
    ((context.left.generation === 'agent_base' && l.length === 0 && r.length > 0) ||
      (context.right.generation === 'agent_base' && r.length === 0 && l.length > 0));
  if (agentBaseDropped) {
    applied.add('tool-result-images');
    l = [];
    r = [];
  }
  if (l.length === 0 && r.length === 0) return null;
  const text = (list: string[]): string => list.map((i) => `[image ${i}]`).join('\n');
  return { name: 'images', left: l, right: r, leftText: text(l), rightText: text(r) };
}
