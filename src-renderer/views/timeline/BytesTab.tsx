import { useMemo } from 'react';
import { MAX_RAW_BYTES, type EnvelopeDetail, type FrameDetail, type RawBytes } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import type { ByteRange } from '../../model/types';
import { useAsync } from '../../app/use-async';
import { Badge } from '../../components/Badge';
import { CodeView } from '../../editor/CodeView';
import { decodeBase64, visibleText } from '../../model/bytes';
import { byteSpans, prettyWireData, wireLanguage } from '../../model/envelope-view';
import { formatBytes, formatCount, formatGap, formatOffset } from '../../model/format';
import { TEST_IDS } from '../../testids';
import { HexView } from './HexView';

/** Bytes shown in the hex view at most (the text view shows the whole window). */
const MAX_HEX_BYTES = 32 * 1024;

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

/** The detail pane's Raw bytes tab: the row's exact bytes as text and hex, the envelope's and a finding's spans marked. */
export function BytesTab({
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

/** The detail pane's Frame & chunks tab: the SSE frame and the network chunks that carried it. */
export function FrameTab({
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
