import { memo, useEffect, useMemo } from 'react';
import { MAX_RAW_BYTES, type EnvelopeDetail, type FrameDetail, type RawBytes } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import { KIND } from '../../../src-shared/envelope/vocabulary';
import type { DetailTab } from '../../model/preferences';
import { useSessionData, useStore, useStoreValue, useWatchSession } from '../../app/hooks';
import { generationOf } from '../../model/session-data';
import type { ByteRange } from '../../model/types';
import { useAsync } from '../../app/use-async';
import { Badge } from '../../components/Badge';
import { CodeView } from '../../editor/CodeView';
import { fallbackLabel, type AgentLabel } from '../../model/agents';
import { decodeBase64, visibleText } from '../../model/bytes';
import { byteSpans, envelopeJson, parsedDelta, prettyWireData, wireLanguage } from '../../model/envelope-view';
import { formatBytes, formatCount, formatCountOf, formatGap, formatOffset } from '../../model/format';
import type { TimelineModel } from '../../model/timeline';
import { TEST_IDS } from '../../testids';
import { HexView } from './HexView';
import { displayJson } from '../../model/json-display';

const TABS: readonly { id: DetailTab; label: string; testId: string }[] = [
  { id: 'envelope', label: 'Envelope', testId: TEST_IDS.detailTabEnvelope },
  { id: 'bytes', label: 'Raw bytes', testId: TEST_IDS.detailTabBytes },
  { id: 'frame', label: 'Frame & chunks', testId: TEST_IDS.detailTabFrame },
  { id: 'block', label: 'Block', testId: TEST_IDS.detailTabBlock },
];

/** Bytes shown in the hex view at most (the text view shows the whole window). */
const MAX_HEX_BYTES = 32 * 1024;

export interface DetailPaneProps {
  readonly app: RendererApp;
  readonly sessionId: string;
  readonly timeline: TimelineModel;
  readonly labels: ReadonlyMap<string, AgentLabel>;
  readonly sessionStart: number;
}

/**
 * The selected row in depth: the envelope, its exact bytes, its frame and chunks, its block.
 * Memoised: rows streaming in do not re-render it, only a new selection does.
 */
export const DetailPane = memo(function DetailPane({
  app,
  sessionId,
  timeline,
  labels,
  sessionStart,
}: DetailPaneProps) {
  const selection = useStore(app.selection);
  const prefs = useStore(app.prefs);
  const seq = selection.row;
  // A replay that starts over (a loop, a restart, a seek back) empties the session: the selected
  // row is asked for again once this generation has delivered it, never from one that has not.
  const generation = useStoreValue(app.session(sessionId), (data) => generationOf(data.summary));
  const delivered = useStoreValue(timeline, (snapshot) => seq !== null && seq < snapshot.total);

  const envelope = useAsync<EnvelopeDetail>(
    seq === null || !delivered ? null : `${sessionId}:${generation}:${seq}`,
    () => app.commands(sessionId).envelope(seq!),
  );
  const env = envelope.value;
  const frame = useAsync<FrameDetail>(env ? `${sessionId}:${env.leg}:${env.frame}` : null, () =>
    app.commands(sessionId).frame(env!.leg, env!.frame),
  );

  const close = (): void => app.prefs.update((p) => ({ ...p, detailOpen: false }));

  return (
    <aside
      className="detail-pane"
      data-testid={TEST_IDS.detailPane}
      aria-label="Selected envelope"
      style={{ width: prefs.detailWidth }}
    >
      <Splitter width={prefs.detailWidth} onWidth={(detailWidth) => app.prefs.update((p) => ({ ...p, detailWidth }))} />
      <div className="detail-tabs" role="tablist">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            aria-selected={prefs.detailTab === tab.id}
            className={`detail-tab ${prefs.detailTab === tab.id ? 'detail-tab-active' : ''}`}
            data-testid={tab.testId}
            onClick={() => app.prefs.update((p) => ({ ...p, detailTab: tab.id }))}
          >
            {tab.label}
          </button>
        ))}
        <span className="spacer" />
        {seq !== null && <span className="detail-seq">#{seq}</span>}
        <button
          type="button"
          className="icon-button"
          aria-label="Close the detail pane"
          title="Close (D)"
          data-testid={TEST_IDS.detailClose}
          onClick={close}
        >
          ×
        </button>
      </div>
      <div className="detail-body">
        {seq === null ? (
          <div className="detail-empty">
            Select a row to see its envelope, the exact bytes it came from, its SSE frame and network chunks, and the
            block it belongs to. ↑ ↓ move, Enter opens.
          </div>
        ) : !delivered ? (
          <div className="detail-empty" data-testid={TEST_IDS.detailWaiting}>
            Envelope #{seq} has not been delivered yet: it shows here when it arrives.
          </div>
        ) : envelope.error ? (
          <div className="inline-error">
            Could not load envelope #{seq}: {envelope.error}
          </div>
        ) : !env ? (
          <div className="detail-empty">Loading…</div>
        ) : (
          <>
            {prefs.detailTab === 'envelope' && (
              <EnvelopeTab
                envelope={env}
                frame={frame.value}
                label={labels.get(env.agent) ?? fallbackLabel(env.agent)}
                sessionStart={sessionStart}
              />
            )}
            {prefs.detailTab === 'bytes' && (
              <BytesTab
                app={app}
                sessionId={sessionId}
                envelope={env}
                frame={frame.value}
                frameError={frame.error}
                finding={selection.bytes}
              />
            )}
            {prefs.detailTab === 'frame' && (
              <FrameTab
                app={app}
                sessionId={sessionId}
                envelope={env}
                frame={frame.value}
                frameError={frame.error}
                sessionStart={sessionStart}
              />
            )}
            {prefs.detailTab === 'block' && <BlockTab app={app} sessionId={sessionId} timeline={timeline} seq={seq} />}
          </>
        )}
      </div>
    </aside>
  );
});

const MIN_DETAIL_WIDTH = 320;

/** Drag handle on the pane's left edge; the width is remembered. */
function Splitter({ width, onWidth }: { width: number; onWidth: (width: number) => void }) {
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the detail pane"
      onMouseDown={(event) => {
        event.preventDefault();
        const startX = event.clientX;
        const max = Math.max(MIN_DETAIL_WIDTH, window.innerWidth - 520);
        const move = (e: MouseEvent): void =>
          onWidth(Math.round(Math.min(max, Math.max(MIN_DETAIL_WIDTH, width + startX - e.clientX))));
        const up = (): void => {
          window.removeEventListener('mousemove', move);
          window.removeEventListener('mouseup', up);
        };
        window.addEventListener('mousemove', move);
        window.addEventListener('mouseup', up);
      }}
    />
  );
}

function EnvelopeTab({
  envelope,
  frame,
  label,
  sessionStart,
}: {
  envelope: EnvelopeDetail;
  frame: FrameDetail | undefined;
  label: AgentLabel;
  sessionStart: number;
}) {
  const json = useMemo(() => envelopeJson(envelope), [envelope]);
  const unified = useMemo(
    () => (envelope.unified ? (displayJson(envelope.unified) ?? null) : null),
    [envelope.unified],
  );
  const delta = useMemo(() => parsedDelta(envelope.delta), [envelope.delta]);
  const wire = useMemo(() => (frame ? prettyWireData(frame.data) : ''), [frame]);
  return (
    <div className="detail-scroll" data-testid={TEST_IDS.envelopeView}>
      <dl className="meta-grid">
        <dt>type</dt>
        <dd>
          {envelope.type} {envelope.final && <Badge tone="ok">final</Badge>}{' '}
          {envelope.control && <Badge tone="warning">{envelope.control}</Badge>}
        </dd>
        <dt>agent</dt>
        <dd title={envelope.agent}>
          <span className="agent-dot" style={{ background: label.colour }} /> {label.name}{' '}
          <span className="dim">{envelope.agent}</span>
        </dd>
        <dt>dialect</dt>
        <dd>{envelope.dialect}</dd>
        <dt>leg · frame</dt>
        <dd>
          leg {envelope.leg} · frame {envelope.frame}
        </dd>
        <dt>bytes</dt>
        <dd>
          {formatCount(envelope.byteStart)}–{formatCount(envelope.byteEnd)} (
          {formatBytes(envelope.byteEnd - envelope.byteStart)})
        </dd>
        <dt>received</dt>
        <dd>{formatOffset(envelope.receivedAt - sessionStart)} s</dd>
        <dt>delta</dt>
        <dd>{formatCountOf(envelope.delta.length, 'character')}</dd>
      </dl>
      {unified && (
        <div data-testid={TEST_IDS.unifiedEvent}>
          <div className="detail-section-title">Unified event</div>
          <CodeView value={unified} language="json" height={editorHeight(unified)} ariaLabel="Unified event" />
        </div>
      )}
      <div className="detail-section-title">Envelope (decoded)</div>
      <CodeView value={json} language="json" height={editorHeight(json)} ariaLabel="Envelope" />
      {delta && (
        <>
          <div className="detail-section-title">Delta, parsed as JSON</div>
          <CodeView value={delta} language="json" height={editorHeight(delta)} ariaLabel="Parsed delta" />
        </>
      )}
      {frame && (
        <>
          <div className="detail-section-title">As on the wire (SSE data of frame {frame.seq})</div>
          <CodeView
            value={wire}
            language={wireLanguage(envelope.dialect, frame.data)}
            height={editorHeight(wire, 320)}
            ariaLabel="Frame data"
          />
        </>
      )}
    </div>
  );
}

/** A height that shows short content whole: wrapped lines counted at ~70 characters. */
function editorHeight(text: string, max = 420): number {
  let lines = 0;
  let start = 0;
  while (start <= text.length && lines < 200) {
    const end = text.indexOf('\n', start);
    const length = (end < 0 ? text.length : end) - start;
    lines += Math.max(1, Math.ceil(length / 70));
    if (end < 0) break;
    start = end + 1;
  }
  return Math.min(max, Math.max(60, lines * 18 + 12));
}

function useRawWindow(
  app: RendererApp,
  sessionId: string,
  envelope: EnvelopeDetail,
  frame: FrameDetail | undefined,
  finding: ByteRange | null,
) {
  // The frame's bytes, widened to include the finding's bytes when they are in the same leg.
  let start = Math.min(envelope.byteStart, frame?.byteStart ?? envelope.byteStart);
  let end = Math.max(envelope.byteEnd, frame?.byteEnd ?? envelope.byteEnd);
  if (finding && finding.leg === envelope.leg) {
    start = Math.min(start, finding.start);
    end = Math.max(end, finding.end);
  }
  end = Math.min(end, start + MAX_RAW_BYTES);
  const key = frame ? `${sessionId}:${envelope.leg}:${start}:${end}` : null;
  return useAsync<RawBytes>(key, () =>
    app.commands(sessionId).rawBytes({ leg: envelope.leg, byteStart: start, byteEnd: end }),
  );
}

function BytesTab({
  app,
  sessionId,
  envelope,
  frame,
  frameError,
  finding,
}: {
  app: RendererApp;
  sessionId: string;
  envelope: EnvelopeDetail;
  frame: FrameDetail | undefined;
  frameError: string | null;
  finding: ByteRange | null;
}) {
  const raw = useRawWindow(app, sessionId, envelope, frame, finding);
  const bytes = useMemo(() => (raw.value ? decodeBase64(raw.value.base64) : null), [raw.value]);
  if (frameError) return <div className="inline-error">Could not load the frame: {frameError}</div>;
  if (raw.error) return <div className="inline-error">Could not load the bytes: {raw.error}</div>;
  if (!raw.value || !bytes) return <div className="detail-empty">Loading bytes…</div>;
  const base = raw.value.byteStart;
  const envelopeRange = { start: envelope.byteStart, end: envelope.byteEnd };
  const findingRange = finding && finding.leg === envelope.leg ? { start: finding.start, end: finding.end } : null;
  const spans = byteSpans(base, raw.value.byteEnd, envelopeRange, findingRange);
  const hexBytes = bytes.subarray(0, MAX_HEX_BYTES);
  const mark = (offset: number): string =>
    findingRange && offset >= findingRange.start && offset < findingRange.end
      ? 'mark-finding'
      : offset >= envelopeRange.start && offset < envelopeRange.end
        ? 'mark-envelope'
        : '';
  return (
    <div className="detail-scroll" data-testid={TEST_IDS.rawBytes}>
      <div className="bytes-legend">
        <span>
          leg {raw.value.leg}, bytes {formatCount(base)}–{formatCount(raw.value.byteEnd)} ({formatBytes(bytes.length)})
        </span>
        <span className="legend-item">
          <span className="legend-swatch mark-envelope" /> this envelope
        </span>
        {findingRange && (
          <span
            className="legend-item"
            data-testid={TEST_IDS.byteHighlight}
            data-start={findingRange.start}
            data-end={findingRange.end}
          >
            <span className="legend-swatch mark-finding" /> finding {formatCount(findingRange.start)}–
            {formatCount(findingRange.end)}
          </span>
        )}
        {raw.value.truncated && <Badge tone="warning">truncated</Badge>}
      </div>
      <div className="detail-section-title">Text (control characters escaped)</div>
      <pre className="raw-text" data-testid={TEST_IDS.rawText}>
        {spans.map((span) => (
          <span key={span.start} className={span.mark === 'none' ? undefined : `mark-${span.mark}`}>
            {visibleText(bytes.subarray(span.start - base, span.end - base)).map((token, i) =>
              token.control ? (
                <span key={i} className="ctl">
                  {token.text}
                </span>
              ) : (
                token.text
              ),
            )}
          </span>
        ))}
      </pre>
      <div className="detail-section-title">Hex</div>
      <HexView bytes={hexBytes} base={base} shownOf={bytes.length} mark={mark} />
    </div>
  );
}

function FrameTab({
  app,
  sessionId,
  envelope,
  frame,
  frameError,
  sessionStart,
}: {
  app: RendererApp;
  sessionId: string;
  envelope: EnvelopeDetail;
  frame: FrameDetail | undefined;
  frameError: string | null;
  sessionStart: number;
}) {
  const raw = useRawWindow(app, sessionId, envelope, frame, null);
  if (frameError) return <div className="inline-error">Could not load the frame: {frameError}</div>;
  if (!frame) return <div className="detail-empty">Loading frame…</div>;
  const chunks = raw.value?.chunks ?? [];
  return (
    <div className="detail-scroll" data-testid={TEST_IDS.frameView}>
      <dl className="meta-grid">
        <dt>frame</dt>
        <dd>
          #{frame.seq} of leg {frame.leg}
        </dd>
        <dt>bytes</dt>
        <dd>
          {formatCount(frame.byteStart)}–{formatCount(frame.byteEnd)} ({formatBytes(frame.byteEnd - frame.byteStart)})
        </dd>
        {frame.line ? (
          <>
            <dt>framing</dt>
            <dd>one line of a line-framed stream ({formatBytes(frame.maxDataLineBytes)}), not an SSE event</dd>
          </>
        ) : (
          <>
            <dt>event</dt>
            <dd>{frame.event || <span className="dim">message (default)</span>}</dd>
            <dt>id</dt>
            <dd>{frame.id || <span className="dim">none</span>}</dd>
            <dt>data lines</dt>
            <dd>
              {frame.dataLines} (longest {formatBytes(frame.maxDataLineBytes)})
              {frame.maxDataLineBytes > 2048 && <Badge tone="warning">over 2048 B</Badge>}
            </dd>
          </>
        )}
        <dt>chunks</dt>
        <dd>
          {frame.chunkFirst === frame.chunkLast
            ? `network chunk ${frame.chunkFirst}`
            : `network chunks ${frame.chunkFirst}–${frame.chunkLast} (split across ${frame.chunkLast - frame.chunkFirst + 1})`}
        </dd>
        <dt>received</dt>
        <dd>{formatOffset(frame.receivedAt - sessionStart)} s</dd>
      </dl>
      <div className="detail-section-title">Network chunks overlapping this frame</div>
      {raw.error && <div className="inline-error">Could not load the chunks: {raw.error}</div>}
      <table className="chunk-table" data-testid={TEST_IDS.chunkList}>
        <thead>
          <tr>
            <th>chunk</th>
            <th>bytes</th>
            <th>size</th>
            <th>received</th>
            <th>gap</th>
          </tr>
        </thead>
        <tbody>
          {chunks.map((chunk, i) => {
            const previous = chunks[i - 1];
            return (
              <tr
                key={chunk.index}
                className={chunk.byteStart < frame.byteEnd && chunk.byteEnd > frame.byteStart ? '' : 'dim'}
              >
                <td className="num">{chunk.index}</td>
                <td className="num">
                  {formatCount(chunk.byteStart)}–{formatCount(chunk.byteEnd)}
                </td>
                <td className="num">{formatBytes(chunk.byteEnd - chunk.byteStart)}</td>
                <td className="num">{formatOffset(chunk.receivedAt - sessionStart)}</td>
                <td className="num">{previous ? formatGap(chunk.receivedAt - previous.receivedAt) : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="detail-section-title">{frame.line ? 'Line' : 'SSE data'}</div>
      <CodeView
        value={prettyWireData(frame.data)}
        language={wireLanguage(envelope.dialect, frame.data)}
        height={240}
        ariaLabel="Frame data"
      />
    </div>
  );
}

function BlockTab({
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
