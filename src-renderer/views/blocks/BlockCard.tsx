import { memo, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import type { BlockDetail, BlockSummary, InlineOptionsPayload, PendingTools } from '../../../src-shared/contract';
import type { FrontendAnswer } from '../../model/frontend-answers';
import type { AppModel } from '../../model/types';
import { detailKey, kindLabel, presentationOf } from '../../model/blocks';
import type { BlockDetails } from '../../model/blocks-details';
import { holdBackPartialTag } from '../../../src-shared/inline/holdback';
import { formatBytes, formatCompact, formatCount } from '../../model/format';
import { PlainBody, SegmentBlockBody, TextBody, ThinkingBody, type BodyProps } from './BlockBodies';
import { AwaitingBody, ErrorBody, FilesBody, JsonBody, ToolCallBody, ToolResultBody } from './DataBodies';
import { BLOCK_IDS } from './testids';
import { StateBody } from './StateBody';
import { KIND } from '../../../src-shared/envelope/vocabulary';

export interface BlockCardProps {
  readonly app: AppModel;
  readonly sessionId: string;
  readonly summary: BlockSummary;
  readonly details: BlockDetails;
  /** The session is still receiving (an open block is live, not unterminated). */
  readonly sessionLive: boolean;
  readonly selected: boolean;
  readonly flash: boolean;
  readonly expandThinking: boolean;
  readonly pending: PendingTools | null;
  readonly inline?: InlineOptionsPayload;
  /** See BodyProps.frontendAnswer. */
  readonly frontendAnswer?: FrontendAnswer | undefined;
  readonly onSelect: (summary: BlockSummary, detail: BlockDetail | null, reveal: boolean) => void;
  readonly onJump: (blockId: number) => void;
}

/** DOM id of a block's card, for jumps between linked blocks. */
export function blockDomId(sessionId: string, blockId: number): string {
  return `blk-${sessionId}-${blockId}`;
}

/** True once the element has come near the viewport (contents are fetched from then on while visible). */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => setNear(entries.some((e) => e.isIntersecting)), {
      rootMargin: '800px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return near;
}

const COLLAPSIBLE = new Set<string>([KIND.thinking, KIND.redacted_thinking]);

export const BlockCard = memo(function BlockCard(props: BlockCardProps) {
  const {
    app,
    sessionId,
    summary,
    details,
    sessionLive,
    selected,
    flash,
    expandThinking,
    pending,
    inline,
    frontendAnswer,
    onSelect,
    onJump,
  } = props;
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  const entry = useSyncExternalStore(details.subscribe, () => details.entry(summary.id));
  const key = detailKey(summary);
  useEffect(() => {
    if (near) details.want(summary);
    // `key` stands for every summary field the detail depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [near, details, key]);

  const live = summary.status === 'open' && sessionLive;
  const unterminated = summary.status === 'open' && !sessionLive;
  const presentation = presentationOf(summary.kind);
  const collapsible = COLLAPSIBLE.has(summary.kind);
  const [openOverride, setOpenOverride] = useState<boolean | null>(null);
  const open = !collapsible || (openOverride ?? (expandThinking || live));
  const detail = entry?.detail ?? null;

  const classes = ['block-card', `kind-${summary.kind}`, `status-${summary.status}`];
  if (live) classes.push('is-live');
  if (selected) classes.push('is-selected');
  if (flash) classes.push('is-flash');

  const bodyProps: BodyProps | null = detail
    ? { app, sessionId, summary, detail, live, onJump, frontendAnswer, ...(inline ? { inline } : {}) }
    : null;

  return (
    <div
      ref={ref}
      id={blockDomId(sessionId, summary.id)}
      className={classes.join(' ')}
      data-testid={BLOCK_IDS.block}
      data-block-id={summary.id}
      data-kind={summary.kind}
      data-status={summary.status}
      data-live={live ? 'true' : 'false'}
      onClick={(event) => {
        // Selecting text or using a control inside the card does not select the block.
        if ((event.target as HTMLElement).closest('a,button,input,textarea,select,.code-view')) return;
        if (window.getSelection()?.toString()) return;
        onSelect(summary, detail, false);
      }}
    >
      <div className="block-header" data-testid={BLOCK_IDS.blockHeader}>
        {collapsible && (
          <button
            type="button"
            className="icon-button block-toggle"
            aria-expanded={open}
            aria-label={open ? 'Collapse' : 'Expand'}
            data-testid={BLOCK_IDS.blockToggle}
            onClick={() => setOpenOverride(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        )}
        <span className={`kind-chip kind-chip-${summary.kind}`}>{kindLabel(summary.kind)}</span>
        {summary.name !== undefined && <span className="block-name mono">{summary.name}</span>}
        {summary.toolId !== undefined && <span className="block-toolid mono muted">{summary.toolId}</span>}
        {!open && <span className="block-preview muted">{holdBackPartialTag(summary.preview, live).visible}</span>}
        <span className="spacer" />
        {live && (
          <span className="live-badge" data-testid={BLOCK_IDS.blockLive} title="Still streaming">
            <span className="live-dot" /> live
          </span>
        )}
        {unterminated && (
          <span
            className="chip chip-small chip-warning"
            title="The stream ended before this block's final envelope (block.unterminated)"
          >
            unterminated
          </span>
        )}
        {summary.status === 'abandoned' && (
          <span
            className="chip chip-small chip-warning"
            title="The server replayed this block from its start (a retried API call)"
          >
            abandoned
            {summary.replacedBy !== undefined && (
              <>
                {' · '}
                <button type="button" className="link-button" onClick={() => onJump(summary.replacedBy as number)}>
                  replayed by #{summary.replacedBy}
                </button>
              </>
            )}
          </span>
        )}
        {summary.replaces !== undefined && (
          <button
            type="button"
            className="link-button chip chip-small"
            onClick={() => onJump(summary.replaces as number)}
            title="This block replays an abandoned one"
          >
            replays #{summary.replaces}
          </button>
        )}
        {summary.parseError !== undefined && (
          <span className="chip chip-small chip-error" title={summary.parseError}>
            does not parse
          </span>
        )}
        {summary.omittedChars !== undefined && (
          <span
            className="chip chip-small chip-warning"
            data-testid={BLOCK_IDS.blockCapped}
            title={`Only the first ${formatCount(summary.length)} characters are held and shown; ${formatCount(summary.omittedChars)} more are in the stream's bytes (Raw view, or export the session). Rule block.content-capped.`}
          >
            capped · {formatCompact(summary.omittedChars)} more chars in the raw bytes
          </span>
        )}
        <span
          className="block-meta mono"
          title={`Envelopes ${summary.firstEnvelope}–${summary.lastEnvelope}, leg ${summary.leg}, bytes ${summary.byteStart}–${summary.byteEnd}`}
        >
          #{summary.id} · {summary.envelopeCount} env · {formatBytes(Math.max(0, summary.byteEnd - summary.byteStart))}
        </span>
        <button
          type="button"
          className="icon-button block-reveal"
          title="Show this block's envelopes in the timeline"
          aria-label="Show in timeline"
          data-testid={BLOCK_IDS.blockReveal}
          onClick={() => onSelect(summary, detail, true)}
        >
          ⇱
        </button>
      </div>
      {open && (
        <div className="block-body" data-testid={BLOCK_IDS.blockBody}>
          {entry?.error && <div className="inline-error">Could not load the block: {entry.error}</div>}
          {!bodyProps ? (
            <pre className="block-pre muted">{summary.preview || (entry?.loading ? 'Loading…' : '')}</pre>
          ) : presentation === 'markdown' ? (
            <TextBody {...bodyProps} />
          ) : presentation === 'thinking' ? (
            <ThinkingBody {...bodyProps} />
          ) : presentation === 'tool-call' ? (
            <ToolCallBody {...bodyProps} />
          ) : presentation === 'tool-result' ? (
            <ToolResultBody {...bodyProps} />
          ) : presentation === 'json' ? (
            <JsonBody {...bodyProps} />
          ) : presentation === 'files' ? (
            <FilesBody {...bodyProps} />
          ) : presentation === 'error' ? (
            <ErrorBody {...bodyProps} />
          ) : presentation === 'awaiting' ? (
            <AwaitingBody {...bodyProps} pending={pending} />
          ) : presentation === 'segment' ? (
            <SegmentBlockBody {...bodyProps} />
          ) : presentation === 'state' ? (
            <StateBody {...bodyProps} />
          ) : (
            <PlainBody {...bodyProps} />
          )}
        </div>
      )}
    </div>
  );
});
