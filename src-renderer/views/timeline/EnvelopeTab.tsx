import { useMemo } from 'react';
import { type EnvelopeDetail, type FrameDetail } from '../../../src-shared/contract';
import { Badge } from '../../components/Badge';
import { CodeView } from '../../editor/CodeView';
import { type AgentLabel } from '../../model/agents';
import { envelopeJson, parsedDelta, prettyWireData, wireLanguage } from '../../model/envelope-view';
import { formatBytes, formatCount, formatCountOf, formatOffset } from '../../model/format';
import { TEST_IDS } from '../../testids';
import { displayJson } from '../../model/json-display';

/** The detail pane's Envelope tab: the decoded envelope, its unified event, its delta parsed, its frame as on the wire. */
export function EnvelopeTab({
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
          <div className="detail-section-title">As on the wire (the data of frame {frame.seq})</div>
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
export function editorHeight(text: string, max = 420): number {
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
