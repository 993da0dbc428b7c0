import { parseJson } from '../../json/values';
import { previewText } from '../../text/preview';
import { describeCdataProblem, type CdataProblem } from './cdata';
import { decodeAttributeValue, type EntityProblem } from './entities';
import { setField } from './fields';
import type { ItemContext } from './item';
import { trailingVocabularyCloseTag } from './item-shape';
import { isMarkupError, readStartTag, type RawAttribute } from './markup';

/*
 * An item read as one element: its start tag, its attributes decoded, its body. The helpers
 * below turn attributes into envelope extras in the JSON dialect's order and report what a
 * malformed attribute or body is, at the item.
 */

export interface Element {
  tag: string;
  attributes: Map<string, string>;
  body: string;
  /** The item ends with no close tag; its body runs to the end of the item. */
  unclosed: boolean;
}

/** Read the item's start tag, attributes and body; reports and keeps it undecoded when unreadable. */
export function readElement(ctx: ItemContext, text: string, tag: string): Element | null {
  const start = readStartTag(text, 0);
  if (isMarkupError(start)) {
    ctx.report(
      'xml.malformed',
      `Event ${ctx.frame.seq}: ${start.error} (character ${start.index}); kept undecoded: ${previewText(text)}`,
    );
    ctx.undecoded();
    return null;
  }
  const closeTag = `</${tag}>`;
  let body = '';
  let unclosed = false;
  if (start.selfClosing) {
    if (start.end < text.length) body = text.slice(start.end);
  } else if (text.endsWith(closeTag) && text.length - closeTag.length >= start.end) {
    body = text.slice(start.end, text.length - closeTag.length);
  } else {
    const wrong = trailingVocabularyCloseTag(text, start.end);
    if (wrong !== null) {
      ctx.report(
        'xml.mismatched',
        `Event ${ctx.frame.seq}: the <${tag}> item ends with </${wrong.tag}> instead of </${tag}>; its body was read up to that close tag.`,
      );
      body = text.slice(start.end, wrong.index);
    } else {
      body = text.slice(start.end);
      unclosed = true;
    }
  }
  return { tag, attributes: decodeAttributes(ctx, tag, start.attributes), body, unclosed };
}

function decodeAttributes(ctx: ItemContext, tag: string, raw: readonly RawAttribute[]): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const attribute of raw) {
    const { value, problems } = decodeAttributeValue(attribute.raw);
    if (problems.length > 0)
      ctx.report(
        'xml.bad-entity',
        `Event ${ctx.frame.seq}: attribute ${attribute.name} of <${tag}> has ${describeEntityProblems(problems)}; kept verbatim.`,
      );
    if (attributes.has(attribute.name)) {
      ctx.report(
        'xml.malformed',
        `Event ${ctx.frame.seq}: attribute ${attribute.name} appears twice in <${tag}>; the first value is used.`,
      );
    } else {
      attributes.set(attribute.name, value);
    }
  }
  return attributes;
}

export function parseAttributeJson(ctx: ItemContext, element: Element, name: string): unknown {
  const value = element.attributes.get(name);
  if (value === undefined) return undefined;
  const parsed = parseJson(value);
  if (parsed.ok) return parsed.value;
  ctx.report(
    'xml.attr-json',
    `Event ${ctx.frame.seq}: attribute ${name} of <${element.tag}> is not valid JSON after decoding (${parsed.error}); the decoded text is kept as the delta: ${previewText(value)}`,
  );
  return undefined;
}

export function requireAttributes(ctx: ItemContext, element: Element, names: readonly string[]): void {
  const missing = names.filter((n) => !element.attributes.has(n));
  if (missing.length > 0)
    ctx.report(
      'xml.malformed',
      `Event ${ctx.frame.seq}: <${element.tag}> lacks the attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    );
}

export function reportCdataProblem(ctx: ItemContext, element: Element, problem: CdataProblem | null): void {
  if (!problem) return;
  ctx.report(
    problem.kind === 'not-cdata' ? 'xml.malformed' : 'xml.broken-cdata',
    describeCdataProblem(problem, `Event ${ctx.frame.seq}, <${element.tag}>`),
  );
  // An unterminated section already explains the missing close tag.
  if (problem.kind === 'unterminated') element.unclosed = false;
}

/** `id` and `name` first, as the JSON dialect orders them, then any other attribute. */
export function idAndName(
  element: Element,
  name: string | undefined,
  skip: readonly string[],
): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  const id = element.attributes.get('id');
  if (id !== undefined) extras['id'] = id;
  if (name !== undefined) extras['name'] = name;
  for (const [key, value] of element.attributes) {
    if (key !== 'id' && key !== 'name' && !skip.includes(key)) setField(extras, key, value);
  }
  return extras;
}

export function extraAttributes(element: Element, skip: readonly string[]): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  for (const [key, value] of element.attributes) if (!skip.includes(key)) setField(extras, key, value);
  return extras;
}

export function describeEntityProblems(problems: readonly EntityProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => `${JSON.stringify(p.text)} at character ${p.index} (${p.reason})`);
  const more = problems.length > 3 ? ` and ${problems.length - 3} more` : '';
  return `${problems.length === 1 ? 'a bad character reference' : `${problems.length} bad character references`}: ${shown.join('; ')}${more}`;
}
