import { useEffect } from 'react';
import type { RendererApp } from '../../model/types';
import { KIND } from '../../../src-shared/envelope/vocabulary';
import { useSessionData, useStore, useWatchSession } from '../../app/hooks';
import { useAsync } from '../../app/use-async';
import { Badge } from '../../components/Badge';
import { CodeView } from '../../editor/CodeView';
import { formatCountOf } from '../../model/format';
import type { TimelineModel } from '../../model/timeline';
import { TEST_IDS } from '../../testids';
import { displayJson } from '../../model/json-display';
import { editorHeight } from './EnvelopeTab';

/** The detail pane's Block tab: the block the row belongs to, its fields and its content. */
export function BlockTab({
  app,
  sessionId,
  timeline,
  seq,
}: {
  app: RendererApp;
  sessionId: string;
  timeline: TimelineModel;
  seq: number;
}) {
  const session = useSessionData(app, sessionId);
  // The row may still be loading (selected from another view): re-read it as pages arrive.
  useStore(timeline);
  const row = timeline.getRow(seq);
  useEffect(() => {
    if (!row) timeline.ensureRow(seq);
  }, [row, seq, timeline]);
  const blockId = row?.block;
  useWatchSession(app, sessionId, 'blocks', blockId !== undefined);
  const summary = blockId !== undefined ? session?.blocks[blockId] : undefined;
  // An open block grows: reload it when its summary changes.
  const key =
    blockId === undefined
      ? null
      : `${sessionId}:${blockId}:${summary?.status ?? ''}:${summary?.length ?? ''}:${summary?.envelopeCount ?? ''}`;
  const block = useAsync(key, () => app.commands(sessionId).block(blockId!));
  if (!row) return <div className="detail-empty">Loading row…</div>;
  if (blockId === undefined)
    return (
      <div className="detail-empty">
        This envelope belongs to no block (a control frame, a marker, or an envelope the decoder could not place).
      </div>
    );
  if (block.error)
    return (
      <div className="inline-error">
        Could not load block {blockId}: {block.error}
      </div>
    );
  const detail = block.value;
  if (!detail) return <div className="detail-empty">Loading block {blockId}…</div>;
  const parsed = detail.parsed !== undefined ? (displayJson(detail.parsed) ?? null) : null;
  return (
    <div className="detail-scroll" data-testid={TEST_IDS.blockOfRow}>
      <dl className="meta-grid">
        <dt>block</dt>
        <dd>
          #{detail.id} {detail.kind}{' '}
          <Badge tone={detail.status === 'complete' ? 'ok' : detail.status === 'open' ? 'live' : 'warning'}>
            {detail.status}
          </Badge>
        </dd>
        {(detail.name || detail.toolId) && (
          <>
            <dt>tool</dt>
            <dd>
              {detail.name} <span className="dim">{detail.toolId}</span>
            </dd>
          </>
        )}
        <dt>envelopes</dt>
        <dd>
          {detail.envelopes.length} (#{detail.envelopes[0]}–#{detail.envelopes[detail.envelopes.length - 1]})
        </dd>
        <dt>content</dt>
        <dd>{formatCountOf(detail.content.length, 'character')}</dd>
        {detail.parseError && (
          <>
            <dt>parse error</dt>
            <dd className="text-error">{detail.parseError}</dd>
          </>
        )}
      </dl>
      <div className="panel-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => app.selectEnvelopes(detail.envelopes, { block: detail.id, reveal: false })}
        >
          Highlight its {formatCountOf(detail.envelopes.length, 'envelope')}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            app.selectEnvelopes(detail.envelopes, { block: detail.id, reveal: false });
            app.navigate('blocks');
          }}
        >
          Show in Blocks
        </button>
      </div>
      <div className="detail-section-title">{parsed ? 'Content, parsed' : 'Content'}</div>
      <CodeView
        value={parsed ?? detail.content}
        language={parsed ? 'json' : detail.kind === KIND.text ? 'markdown' : 'plaintext'}
        height={editorHeight(parsed ?? detail.content, 480)}
        ariaLabel="Block content"
      />
    </div>
  );
}
