import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject } from '../../json/values';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';

/**
 * A candidate's sources, as citations of its text (the citation blocks every dialect shares):
 * `groundingMetadata` (Grounding with Google Search, Vertex AI Search, Maps) cites, per
 * `groundingSupports` entry, the text segment it supports with each grounding chunk it names;
 * `citationMetadata.citationSources` (Vertex AI: `citations`) cites recited sources by range.
 * The API measures a segment's and a citation source's range in bytes of the UTF-8 text, not
 * in characters: they are given as `start_byte_index` / `end_byte_index`, never as the
 * character indexes other dialects' citations carry. The search itself (its queries and the
 * pages found) is shown as the built-in web search's result.
 */
export function emitSources(ctx: ProviderEventContext, candidate: WireEvent, from: SourcesOf): void {
  const ids = from.ids();
  const grounding = objectField(candidate, 'groundingMetadata');
  if (Object.keys(grounding).length > 0) emitGrounding(ctx, grounding, ids, from);
  const metadata = objectField(candidate, 'citationMetadata');
  citeSources(ctx, ids, metadata['citationSources'], ['start_byte_index', 'end_byte_index']);
  citeSources(ctx, ids, metadata['citations'], ['start_index', 'end_index']);
}

/**
 * The recited sources of `citationMetadata`: the Gemini API's `citationSources` (its range in
 * bytes, as its reference says) or Vertex AI's `citations` (with a title and a publication
 * date; its reference says only "index into the content", so its range is named as the API
 * names it, with no unit claimed). `range`: the names the range is given under.
 */
function citeSources(ctx: ProviderEventContext, ids: StreamIds, sources: unknown, range: [string, string]): void {
  if (!Array.isArray(sources)) return;
  for (const source of sources) {
    if (!isJsonObject(source)) continue;
    citation(ctx, ids, '', {
      citation_type: 'citation_source',
      ...optional('url', source['uri']),
      ...optional('title', source['title']),
      ...optional('license', source['license']),
      ...optional('publication_date', source['publicationDate']),
      ...optional(range[0], source['startIndex']),
      ...optional(range[1], source['endIndex']),
    });
  }
}

/**
 * The candidate whose sources they are: its ids, whether the URL context tool fetched pages for
 * it, and the grounding chunks of its earlier chunks. A support's `groundingChunkIndices` count
 * the candidate's grounding chunks across its chunks: a file search whose code's chunk gave one
 * chunk and whose finishing chunk gave it again cites index 1 (pydantic-ai/gemini-file-search).
 */
export interface SourcesOf {
  ids(): StreamIds;
  fetchedUrls: boolean;
  groundingChunks: unknown[];
}

/**
 * The URL context tool's `urlContextMetadata` (on the chunk where it ran, not the finishing
 * one): the pages it fetched, each with its retrieval status, shown as that built-in tool's
 * result (`url_context`); it fails when no page was retrieved. The grounding of such a
 * candidate cites those pages: it is that tool's, not a web search's, unless it names queries.
 */
export function emitUrlContext(ctx: ProviderEventContext, candidate: WireEvent, to: SourcesOf): void {
  const metadata = objectField(candidate, 'urlContextMetadata');
  const urls = Array.isArray(metadata['urlMetadata']) ? metadata['urlMetadata'].filter(isJsonObject) : [];
  if (urls.length === 0) return;
  to.fetchedUrls = true;
  const retrieved = urls.some((url) => stringField(url, 'urlRetrievalStatus') === 'URL_RETRIEVAL_STATUS_SUCCESS');
  ctx.wire(
    'urlContextMetadata',
    metadata,
    unified('stream.tool_call_result', to.ids(), {
      kind: 'urlContextMetadata',
      tool: { kind: 'builtin', builtin: 'url_context' },
      phase: retrieved ? 'completed' : 'failed',
      action: {
        urls: urls.map((url) => ({
          url: stringField(url, 'retrievedUrl'),
          status: stringField(url, 'urlRetrievalStatus'),
        })),
      },
    }),
  );
}

function emitGrounding(ctx: ProviderEventContext, grounding: WireEvent, ids: StreamIds, from: SourcesOf): void {
  const chunks = Array.isArray(grounding['groundingChunks']) ? (grounding['groundingChunks'] as unknown[]) : [];
  const seen = from.groundingChunks;
  // A loop, not a spread: the list comes from the wire, and a spread of a long one overflows the stack.
  for (const chunk of chunks) seen.push(chunk);
  const source = (index: unknown): WireEvent => {
    const chunk = typeof index === 'number' ? seen[index] : undefined;
    if (!isJsonObject(chunk)) return {};
    for (const key of ['web', 'retrievedContext', 'maps']) if (isJsonObject(chunk[key])) return chunk[key];
    return {};
  };
  const results = chunks.flatMap((_, i) => {
    const web = source(seen.length - chunks.length + i);
    const url = stringField(web, 'uri');
    return url ? [{ url, title: stringField(web, 'title') }] : [];
  });
  ctx.wire(
    'groundingMetadata',
    grounding,
    unified('stream.tool_call_result', ids, {
      kind: 'groundingMetadata',
      tool: {
        kind: 'builtin',
        builtin: groundingTool(grounding, chunks, from),
      },
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
        ...optional('file_search_store', cited['fileSearchStore']),
        ...optional('source_text', cited['text']),
        ...optional('start_byte_index', segment['startIndex']),
        ...optional('end_byte_index', segment['endIndex']),
        ...optional('grounding_chunk', chunkIndex),
        ...optional('confidence', scores[i]),
      });
    });
  }
}

/**
 * The built-in tool a grounding is the result of: a web search when it names its queries; else
 * the URL context tool when it fetched pages; a file search when its chunks are passages
 * retrieved from a file search store (`retrievedContext`); else a web search.
 */
function groundingTool(grounding: WireEvent, chunks: unknown[], from: SourcesOf): string {
  if ('webSearchQueries' in grounding) return 'web_search';
  if (from.fetchedUrls) return 'url_context';
  const retrieved = chunks.some((chunk) => isJsonObject(chunk) && isJsonObject(chunk['retrievedContext']));
  return retrieved ? 'file_search' : 'web_search';
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
