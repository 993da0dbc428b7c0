import { useState } from 'react';
import type { BlockDetail, BlockSummary, InlineOptionsPayload } from '../../../src-shared/contract';
import { inlineTagNames } from '../../../src-shared/inline/tag-vocabulary';
import { DEFAULT_INLINE_OPTIONS } from '../../../src-shared/inline/types';
import type { FrontendAnswer } from '../../model/frontend-answers';
import type { AppModel } from '../../model/types';
import { holdBackPartialTag, watchedWithInlineTags } from '../../../src-shared/inline/holdback';
import { payloadImage, payloadLink, payloadOf, prettyJson } from '../../model/blocks';
import { hasProtocolSegments } from '../../model/segments';
import { ExternalLink, ImageRefView } from './links';
import { SafeMarkdown } from './SafeMarkdown';
import { ClippedText } from './ClippedText';
import { SegmentsBody } from './SegmentsBody';
import { BLOCK_IDS } from './testids';
import { stringifyJson } from '../../../src-shared/json/tree';

/**
 * The body of each kind of block. Each takes the block's detail (content, citations, images,
 * parsed payload) once fetched; until then the card shows the summary's preview.
 */

export interface BodyProps {
  readonly app: AppModel;
  readonly sessionId: string;
  readonly summary: BlockSummary;
  readonly detail: BlockDetail;
  /** The block is still streaming (holdback applies). */
  readonly live: boolean;
  readonly onJump: (blockId: number) => void;
  /** How the session reads protocols in text blocks (the tags the raw view holds back). */
  readonly inline?: InlineOptionsPayload;
  /** For a client-side tool call the run paused for: the leg that carried its answer (model/frontend-answers.ts). */
  readonly frontendAnswer?: FrontendAnswer | undefined;
}

function HeldBackNote({ heldBack }: { heldBack: number }) {
  if (heldBack === 0) return null;
  return (
    <span className="holdback-note" title="A possible tag is still arriving; it is shown once complete">
      ⋯ {heldBack} char{heldBack === 1 ? '' : 's'} held back
    </span>
  );
}

/**
 * A text block: as its segments when the model wrote a protocol in it (docs/inline.md), with a
 * toggle to the raw text; otherwise as markdown.
 */
export function TextBody({ app, detail, live, inline }: BodyProps) {
  const [raw, setRaw] = useState(false);
  const segments = detail.segments;
  if (!hasProtocolSegments(segments)) return <MarkdownText {...{ app, detail, live }} />;
  const { visible, heldBack } = holdBackPartialTag(
    detail.content,
    live,
    watchedWithInlineTags(inlineTagNames(inline ?? DEFAULT_INLINE_OPTIONS)),
  );
  return (
    <>
      <div
        className="segmented segmented-small text-view-toggle"
        role="radiogroup"
        aria-label="Text view"
        data-testid={BLOCK_IDS.textView}
      >
        <button
          type="button"
          role="radio"
          aria-checked={!raw}
          className={raw ? '' : 'segmented-active'}
          onClick={() => setRaw(false)}
        >
          Segments ({segments.length})
        </button>
        <button
          type="button"
          role="radio"
          aria-checked={raw}
          className={raw ? 'segmented-active' : ''}
          onClick={() => setRaw(true)}
        >
          Raw text
        </button>
      </div>
      {raw ? (
        <>
          <ClippedText text={visible} testId={BLOCK_IDS.rawText} />
          <HeldBackNote heldBack={heldBack} />
        </>
      ) : (
        <SegmentsBody app={app} segments={segments} live={live} held={detail.held ?? 0} />
      )}
      {detail.citations.length > 0 && <Citations app={app} detail={detail} />}
      {detail.images.length > 0 && <Images app={app} detail={detail} />}
    </>
  );
}

/** A block of the segment-events dialect: one segment, shown as the inline stage's segments are. */
export function SegmentBlockBody({ app, detail, live }: BodyProps) {
  if (!detail.segments) return <ClippedText text={detail.content} />;
  return <SegmentsBody app={app} segments={detail.segments} live={live} held={0} />;
}

/**
 * Text with no protocol segments (yet): while live, the inline stage's held characters (a tag
 * or sentinel it is still deciding, always the tail) are not shown, nor a partial tag of the
 * legacy XML stream.
 */
function MarkdownText({ app, detail, live }: Pick<BodyProps, 'app' | 'detail' | 'live'>) {
  const held = live ? Math.min(detail.held ?? 0, detail.content.length) : 0;
  const tagged = holdBackPartialTag(
    held > 0 ? detail.content.slice(0, detail.content.length - held) : detail.content,
    live,
  );
  const visible = tagged.visible;
  const heldBack = tagged.heldBack + held;
  return (
    <>
      <SafeMarkdown app={app} text={visible} />
      <HeldBackNote heldBack={heldBack} />
      {detail.citations.length > 0 && <Citations app={app} detail={detail} />}
      {detail.images.length > 0 && <Images app={app} detail={detail} />}
    </>
  );
}

export function ThinkingBody({ detail, live }: BodyProps) {
  const { visible, heldBack } = holdBackPartialTag(detail.content, live);
  return (
    <>
      <pre className="block-pre thinking-text">{visible}</pre>
      <HeldBackNote heldBack={heldBack} />
    </>
  );
}

const CITATION_MAIN_FIELDS = new Set(['url', 'title', 'document_title', 'document_index']);

function Citations({ app, detail }: { app: AppModel; detail: BlockDetail }) {
  return (
    <ol className="citations" data-testid={BLOCK_IDS.citations}>
      {detail.citations.map((c, i) => {
        const url = typeof c.fields['url'] === 'string' ? c.fields['url'] : undefined;
        const title =
          typeof c.fields['title'] === 'string'
            ? c.fields['title']
            : typeof c.fields['document_title'] === 'string'
              ? c.fields['document_title']
              : undefined;
        const docIndex = c.fields['document_index'];
        const rest = Object.entries(c.fields).filter(([k]) => !CITATION_MAIN_FIELDS.has(k));
        return (
          <li key={i} className="citation" data-testid={BLOCK_IDS.citation}>
            <span className="citation-n">[{i + 1}]</span>
            <span className="chip chip-small">{c.citationType}</span>
            {title && <span className="citation-title">{title}</span>}
            {docIndex !== undefined && <span className="muted">doc {stringifyJson(docIndex)}</span>}
            {url && (
              <ExternalLink app={app} href={url}>
                {url}
              </ExternalLink>
            )}
            {c.citedText !== '' && <blockquote className="citation-quote">{c.citedText}</blockquote>}
            {rest.length > 0 && (
              <span className="citation-fields">
                {rest.map(([k, v]) => (
                  <span key={k} className="kv">
                    <span className="kv-k">{k}</span>{' '}
                    <CitationValue value={typeof v === 'string' ? v : (stringifyJson(v) ?? '')} />
                  </span>
                ))}
              </span>
            )}
            <span className="muted citation-env">envelope {c.envelope}</span>
          </li>
        );
      })}
    </ol>
  );
}

export function Images({ app, detail }: { app: AppModel; detail: BlockDetail }) {
  return (
    <div className="block-images">
      {detail.images.map((image, i) => (
        <ImageRefView key={i} app={app} src={image.src} mediaType={image.mediaType} />
      ))}
    </div>
  );
}

/**
 * Any other block: its payload as text, pretty JSON when it parses, the page it points at (a
 * source part's, as a link that opens only on click) and the image it carries (a file part's).
 */
export function PlainBody({ app, detail, live }: BodyProps) {
  const payload = payloadOf(detail);
  const pretty = prettyJson(detail, payload);
  const image = payloadImage(payload);
  const link = payloadLink(payload);
  return (
    <>
      {link && (
        <p className="block-link" data-testid={BLOCK_IDS.payloadLink}>
          {link.title && <span className="citation-title">{link.title}</span>}
          <ExternalLink app={app} href={link.url} />
        </p>
      )}
      <ClippedText text={pretty ?? holdBackPartialTag(detail.content, live).visible} />
      {image && (
        <div className="block-images">
          <ImageRefView app={app} src={image.src} mediaType={image.mediaType} />
        </div>
      )}
    </>
  );
}

/** Longer than this, a citation field's value is cut in its tooltip too (a cited page's whole text). */
const TOOLTIP_CHARS = 2000;

/** A citation field's value on one line, cut with an ellipsis when long; its tooltip shows more. */
function CitationValue({ value }: { value: string }) {
  const tooltip = value.length > TOOLTIP_CHARS ? `${value.slice(0, TOOLTIP_CHARS)}…` : value;
  return (
    <span className="kv-v" title={tooltip}>
      {value}
    </span>
  );
}
