import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject } from '../../json/values';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';

/**
 * A candidate's sources, as citations of its text (the citation blocks every dialect shares):
 * `groundingMetadata` (Grounding with Google Search, Vertex AI Search, Maps) cites, per
 * `groundingSupports` entry, the text segment it supports with each grounding chunk it names;
 * `citationMetadata.citationSources` cites recited sources by range. The API measures both
 * ranges in bytes of the UTF-8 text, not in characters: they are given as `start_byte_index` /
 * `end_byte_index`, never as the character indexes other dialects' citations carry. The search
 * itself (its queries and the pages found) is shown as the built-in web search's result.
 */
export function emitSources(ctx: ProviderEventContext, candidate: WireEvent, ids: StreamIds): void {
  const grounding = objectField(candidate, 'groundingMetadata');
  if (Object.keys(grounding).length > 0) emitGrounding(ctx, grounding, ids);
  const sources = objectField(candidate, 'citationMetadata')['citationSources'];
  if (!Array.isArray(sources)) return;
  for (const source of sources) {
    if (!isJsonObject(source)) continue;
    citation(ctx, ids, '', {
      citation_type: 'citation_source',
      ...optional('url', source['uri']),
      ...optional('license', source['license']),
      ...optional('start_byte_index', source['startIndex']),
      ...optional('end_byte_index', source['endIndex']),
    });
  }
}

function emitGrounding(ctx: ProviderEventContext, grounding: WireEvent, ids: StreamIds): void {
  const chunks = Array.isArray(grounding['groundingChunks']) ? (grounding['groundingChunks'] as unknown[]) : [];
  const source = (index: unknown): WireEvent => {
    const chunk = typeof index === 'number' ? chunks[index] : undefined;
    if (!isJsonObject(chunk)) return {};
    for (const key of ['web', 'retrievedContext', 'maps']) if (isJsonObject(chunk[key])) return chunk[key];
    return {};
  };
  const results = chunks.flatMap((_, i) => {
    const web = source(i);
    const url = stringField(web, 'uri');
    return url ? [{ url, title: stringField(web, 'title') }] : [];
  });
  ctx.wire(
    'groundingMetadata',
    grounding,
    unified('stream.tool_call_result', ids, {
      kind: 'groundingMetadata',
      tool: { kind: 'builtin', builtin: 'web_search' },
      phase: 'completed',
      ...(results.length > 0 ? { search_results: results } : {}),
      ...(Array.isArray(grounding['webSearchQueries']) ? { action: { queries: grounding['webSearchQueries'] } } : {}),
    }),
  );
  const supports = Array.isArray(grounding['groundingSupports']) ? (grounding['groundingSupports'] as unknown[]) : [];
  for (const support of supports) {
    if (!isJsonObject(support)) continue;
    const segment = objectField(support, 'segment');
    const indices = Array.isArray(support['groundingChunkIndices']) ? support['groundingChunkIndices'] : [undefined];
    const scores = Array.isArray(support['confidenceScores']) ? support['confidenceScores'] : [];
    indices.forEach((chunkIndex: unknown, i) => {
      const cited = source(chunkIndex);
      citation(ctx, ids, stringField(segment, 'text'), {
        citation_type: 'grounding',
        ...optional('url', cited['uri']),
        ...optional('title', cited['title']),
        ...optional('start_byte_index', segment['startIndex']),
        ...optional('end_byte_index', segment['endIndex']),
        ...optional('grounding_chunk', chunkIndex),
        ...optional('confidence', scores[i]),
      });
    });
  }
}

function citation(ctx: ProviderEventContext, ids: StreamIds, cited: string, extras: Record<string, unknown>): void {
  ctx.emit(
    { type: KIND.citation, final: true, delta: cited, extras },
    unified('stream.content_block_delta', ids, { kind: 'citations_delta', channel: 'output_text' }),
  );
}

function optional(key: string, value: unknown): Record<string, unknown> {
  return value === undefined || value === null ? {} : { [key]: value };
}
