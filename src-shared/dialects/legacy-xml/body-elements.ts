import { KIND } from '../../envelope/vocabulary';
import { decodeAttributeValue } from './entities';
import { describeCdataProblem, unwrapCdata } from './cdata';
import { citationExtras, readCitations } from './citations';
import {
  describeEntityProblems,
  extraAttributes,
  idAndName,
  reportCdataProblem,
  requireAttributes,
  type Element,
} from './element';
import { unescapeToolResultCdata } from './escaping';
import { setField } from './fields';
import type { ItemContext } from './item';
import { readToolResultBody } from './tool-result';

/*
 * The elements whose content is their body rather than an attribute: tool results (a CDATA
 * section, or text plus images), plain CDATA elements and citation lists. None of them
 * depends on what came before in the stream except whether items are still escaped, which the
 * decoder passes in.
 */

export function decodeServerToolResult(ctx: ItemContext, element: Element, name: string): void {
  requireAttributes(ctx, element, ['id']);
  const section = unwrapCdata(element.body, false);
  reportCdataProblem(ctx, element, section.problem);
  ctx.emit({
    type: KIND.server_tool_result,
    final: true,
    delta: section.content,
    extras: idAndName(element, name, []),
  });
}

/** `escaped`: whether the stream's items are still SSE-escaped (the decoder's notes). */
export function decodeToolResult(ctx: ItemContext, element: Element, escaped: boolean): void {
  const { frame } = ctx;
  requireAttributes(ctx, element, ['id', 'name']);
  const body = readToolResultBody(element.body);
  reportCdataProblem(ctx, element, body.problem);
  if (body.error)
    ctx.report(
      'xml.malformed',
      `Event ${frame.seq}: the multimodal <${element.tag}> body is not <text> plus <image /> tags: ${body.error.message} (character ${body.error.index} of the body); the rest is dropped from the envelopes and stays in the event's bytes.`,
    );
  const text = body.problem?.kind === 'not-cdata' ? body.text : unescapeToolResultCdata(body.text, escaped);
  const extras = idAndName(element, element.attributes.get('name'), []);
  if (!body.multimodal) {
    ctx.emit({ type: KIND.tool_result, final: true, delta: text, extras });
    return;
  }
  // The JSON dialect's multimodal sequence: text (not final), one image each, empty final marker.
  ctx.emit({ type: KIND.tool_result, final: false, delta: text, extras });
  for (const image of body.images) {
    const imageExtras = { ...extras };
    for (const attribute of image) {
      const { value, problems } = decodeAttributeValue(attribute.raw);
      if (problems.length > 0)
        ctx.report(
          'xml.bad-entity',
          `Event ${frame.seq}: attribute ${attribute.name} of <image> has ${describeEntityProblems(problems)}; kept verbatim.`,
        );
      if (!Object.hasOwn(imageExtras, attribute.name)) setField(imageExtras, attribute.name, value);
    }
    for (const required of ['src', 'media_type']) {
      if (!Object.hasOwn(imageExtras, required))
        ctx.report(
          'xml.malformed',
          `Event ${frame.seq}: an <image /> of <${element.tag}> has no ${required} attribute.`,
        );
    }
    ctx.emit({ type: KIND.tool_result_image, final: false, delta: '', extras: imageExtras });
  }
  ctx.emit({ type: KIND.tool_result, final: true, delta: '', extras });
}

export function decodeCdataElement(ctx: ItemContext, element: Element, type: string): void {
  const section = unwrapCdata(element.body, false);
  reportCdataProblem(ctx, element, section.problem);
  ctx.emit({ type, final: true, delta: section.content, extras: extraAttributes(element, []) });
}

export function decodeCitations(ctx: ItemContext, element: Element): void {
  const { frame } = ctx;
  const list = readCitations(element.body);
  if (list.error)
    ctx.report(
      'xml.malformed',
      `Event ${frame.seq}: <citations> holds something other than <citation> elements: ${list.error.message} (character ${list.error.index} of the body); the rest is dropped from the envelopes and stays in the event's bytes.`,
    );
  if (list.citations.length === 0) {
    ctx.report('xml.malformed', `Event ${frame.seq}: <citations> holds no <citation>; kept undecoded.`);
    ctx.undecoded();
    return;
  }
  list.citations.forEach((citation, i) => {
    const decoded = citation.attributes.map((attribute) => {
      const { value, problems } = decodeAttributeValue(attribute.raw);
      if (problems.length > 0)
        ctx.report(
          'xml.bad-entity',
          `Event ${frame.seq}: attribute ${attribute.name} of citation ${i + 1} has ${describeEntityProblems(problems)}; kept verbatim.`,
        );
      return { name: attribute.name, value };
    });
    if (citation.problem)
      ctx.report(
        citation.problem.kind === 'not-cdata' ? 'xml.malformed' : 'xml.broken-cdata',
        describeCdataProblem(citation.problem, `Event ${frame.seq}, citation ${i + 1}`),
      );
    ctx.emit({
      type: KIND.citation,
      final: i === list.citations.length - 1,
      delta: citation.citedText,
      extras: citationExtras(decoded),
    });
  });
}
