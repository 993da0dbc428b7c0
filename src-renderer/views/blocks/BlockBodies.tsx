import { useState } from 'react';
import type { BlockDetail, BlockSummary, InlineOptionsPayload, PendingTools } from '../../../src-shared/contract';
import { inlineTagNames } from '../../../src-shared/inline/tag-vocabulary';
import { DEFAULT_INLINE_OPTIONS } from '../../../src-shared/inline/types';
import type { AppModel } from '../../model/types';
import { CodeView } from '../../editor/CodeView';
import { holdBackPartialTag, watchedWithInlineTags } from '../../../src-shared/inline/holdback';
import { errorFrameOf, metaFilesOf, prettyJson } from '../../model/blocks';
import { formatCountOf, formatFact } from '../../model/format';
import { hasProtocolSegments } from '../../model/segments';
import { prettyInput, messageOf } from '../../model/tools';
import { ExternalLink, ImageRefView } from './links';
import { SafeMarkdown } from './SafeMarkdown';
import { ClippedText, lineCount } from './ClippedText';
import { SegmentsBody } from './SegmentsBody';
import { BLOCK_IDS } from './testids';
import { stringifyJson } from '../../../src-shared/json/tree';
import { KIND } from '../../../src-shared/envelope/vocabulary';

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
                    <span className="kv-v">{typeof v === 'string' ? v : stringifyJson(v)}</span>
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

function Images({ app, detail }: { app: AppModel; detail: BlockDetail }) {
  return (
    <div className="block-images">
      {detail.images.map((image, i) => (
        <ImageRefView key={i} app={app} src={image.src} mediaType={image.mediaType} />
      ))}
    </div>
  );
}

function ToolLink({
  target,
  label,
  onJump,
}: {
  target: number | undefined;
  label: string;
  onJump: (id: number) => void;
}) {
  if (target === undefined)
    return <span className="muted tool-link-missing">{label === 'result' ? 'no result yet' : 'no matching call'}</span>;
  return (
    <button
      type="button"
      className="link-button tool-link"
      data-testid={BLOCK_IDS.toolLink}
      onClick={(event) => {
        event.stopPropagation();
        onJump(target);
      }}
    >
      {label === 'result' ? `→ result #${target}` : `← call #${target}`}
    </button>
  );
}

export function ToolCallBody({ detail, summary, onJump, live }: BodyProps) {
  const pretty = prettyJson(detail);
  return (
    <>
      <div className="tool-line">
        <span className="muted">arguments</span>
        {detail.parseError && <span className="warn-text">does not parse: {detail.parseError}</span>}
        <span className="spacer" />
        <ToolLink target={summary.linkedBlock} label="result" onJump={onJump} />
      </div>
      <ClippedText
        text={pretty ?? (live ? holdBackPartialTag(detail.content, live).visible : detail.content)}
        className="json-text"
        testId={BLOCK_IDS.toolArgs}
      />
    </>
  );
}

export function ToolResultBody({ app, detail, summary, onJump }: BodyProps) {
  return (
    <>
      <div className="tool-line">
        <span className="muted">result</span>
        <span className="spacer" />
        <ToolLink target={summary.linkedBlock} label="call" onJump={onJump} />
      </div>
      <ClippedText text={detail.content} testId={BLOCK_IDS.toolResult} />
      {detail.images.length > 0 && <Images app={app} detail={detail} />}
    </>
  );
}

export function JsonBody({ detail }: BodyProps) {
  const [open, setOpen] = useState(false);
  const pretty = prettyJson(detail);
  const parsed: unknown = detail.parsed;
  const keys = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  const facts = summaryFacts(detail.kind, parsed);
  return (
    <div data-testid={BLOCK_IDS.metaJson}>
      <div className="meta-facts">
        {facts.map(([k, v]) => (
          <span key={k} className="kv">
            <span className="kv-k">{k}</span> <span className="kv-v">{v}</span>
          </span>
        ))}
        {detail.parseError && <span className="warn-text">payload does not parse: {detail.parseError}</span>}
        <span className="spacer" />
        <button
          type="button"
          className="link-button"
          onClick={(event) => {
            event.stopPropagation();
            setOpen((o) => !o);
          }}
        >
          {open ? 'Hide JSON' : `Show JSON${keys.length > 0 ? ` (${formatCountOf(keys.length, 'key')})` : ''}`}
        </button>
      </div>
      {open && (
        <div className="meta-editor" onClick={(event) => event.stopPropagation()}>
          <CodeView
            value={pretty ?? detail.content}
            language={pretty ? 'json' : 'plaintext'}
            height={Math.min(420, 40 + 19 * lineCount(pretty ?? detail.content, 40))}
            ariaLabel={`${detail.kind} payload`}
          />
        </div>
      )}
    </div>
  );
}

/** The fields a reader looks for first in meta_init, meta_final and a provider message's summary. */
const SUMMARY_FACTS: Record<string, readonly string[]> = {
  meta_init: ['model', 'format', 'user_query', 'agent_uuid', 'parent_agent_uuid'],
  meta_final: ['stop_reason', 'total_steps', 'cost', 'cumulative_usage'],
  message: [
    'model',
    'status',
    'stop_reason',
    'tokens',
    'time_to_first_token_ms',
    'output_tokens_per_second',
    'error',
    'incomplete_details',
  ],
};

/** A provider message's usage as one fact: `412 in · 38 out` (the whole usage is in its JSON). */
function withTokens(kind: string, p: Record<string, unknown>): Record<string, unknown> {
  const usage = p['usage'];
  if (kind !== KIND.message || typeof usage !== 'object' || usage === null) return p;
  const u = usage as Record<string, unknown>;
  const count = (key: string): string => (typeof u[key] === 'number' ? String(u[key]) : '?');
  return { ...p, tokens: `${count('input_tokens')} in · ${count('output_tokens')} out` };
}

function summaryFacts(kind: string, parsed: unknown): [string, string][] {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const p = withTokens(kind, parsed as Record<string, unknown>);
  const wanted = SUMMARY_FACTS[kind] ?? SUMMARY_FACTS['meta_final'] ?? [];
  const out: [string, string][] = [];
  for (const key of wanted) {
    const value = p[key];
    if (value === undefined || value === null) continue;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number'
          ? formatFact(key, value)
          : (stringifyJson(value) ?? '');
    out.push([key, text.length > 90 ? `${text.slice(0, 89)}…` : text]);
  }
  return out;
}

export function FilesBody(props: BodyProps) {
  const files = metaFilesOf(props.detail.parsed);
  if (files.length === 0) return <JsonBody {...props} />;
  return (
    <table className="files-table" data-testid={BLOCK_IDS.metaFiles}>
      <thead>
        <tr>
          <th>file</th>
          <th>id</th>
          <th>other fields</th>
        </tr>
      </thead>
      <tbody>
        {files.map((f, i) => (
          <tr key={`${f.id}-${i}`}>
            <td className="mono">{f.name}</td>
            <td className="mono muted">{f.id}</td>
            <td className="muted">
              {Object.entries(f.fields)
                .filter(([k]) => k !== 'file_id' && k !== 'filename')
                .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : stringifyJson(v)}`)
                .join(' · ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ErrorBody({ detail }: BodyProps) {
  const frame = errorFrameOf(detail.parsed);
  if (!frame) {
    return (
      <div className="error-body" data-testid={BLOCK_IDS.errorBlock}>
        <ClippedText text={detail.content} className="error-text" />
      </div>
    );
  }
  return (
    <div className="error-body" data-testid={BLOCK_IDS.errorBlock}>
      <div className="error-head">
        <span className="error-name mono">{frame.error}</span>
        <span className="error-text">{frame.message}</span>
      </div>
      {frame.traceback !== null && <Traceback text={frame.traceback} />}
    </div>
  );
}

function Traceback({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="traceback-wrap">
      <button
        type="button"
        className="link-button small"
        onClick={(event) => {
          event.stopPropagation();
          setOpen((o) => !o);
        }}
      >
        {open ? '▾ Traceback' : '▸ Traceback'}
      </button>
      {open && <ClippedText text={text} className="traceback" />}
    </div>
  );
}

export function AwaitingBody({ detail, pending }: BodyProps & { pending: PendingTools | null }) {
  const tools = detail.pendingTools ?? [];
  const state = pending && pending.block === detail.id ? pending.answered : null;
  return (
    <div className="awaiting-body" data-testid={BLOCK_IDS.awaitingBlock}>
      <div className="tool-line">
        <span>
          The agent paused for {tools.length} frontend tool{tools.length === 1 ? '' : 's'}.
        </span>
        {state && (
          <span className={`chip chip-small answered-${state}`}>
            {state === 'no' ? 'waiting for an answer (see the prompt above)' : state}
          </span>
        )}
      </div>
      {detail.parseError && <div className="warn-text">payload does not parse: {detail.parseError}</div>}
      <ul className="awaiting-tools">
        {tools.map((tool) => {
          const message = messageOf(tool.input);
          return (
            <li key={tool.toolUseId}>
              <span className="mono strong">{tool.name}</span> <span className="mono muted">{tool.toolUseId}</span>
              {message && <div className="tool-message">{message}</div>}
              <pre className="block-pre json-text">{prettyInput(tool.input)}</pre>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function PlainBody({ detail, live }: BodyProps) {
  const pretty = prettyJson(detail);
  return <ClippedText text={pretty ?? holdBackPartialTag(detail.content, live).visible} />;
}
