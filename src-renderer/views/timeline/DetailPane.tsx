import { memo } from 'react';
import { type EnvelopeDetail, type FrameDetail } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import type { DetailTab } from '../../model/preferences';
import { useStore, useStoreValue } from '../../app/hooks';
import { generationOf } from '../../model/session-data';
import { useAsync } from '../../app/use-async';
import { fallbackLabel, type AgentLabel } from '../../model/agents';
import type { TimelineModel } from '../../model/timeline';
import { TEST_IDS } from '../../testids';
import { BlockTab } from './BlockTab';
import { BytesTab, FrameTab } from './BytesTab';
import { EnvelopeTab } from './EnvelopeTab';

/** Short labels: the four fit on one line in the narrowest pane (320 px); the tooltip says what each shows. */
const TABS: readonly { id: DetailTab; label: string; title: string; testId: string }[] = [
  { id: 'envelope', label: 'Envelope', title: 'The envelope, decoded', testId: TEST_IDS.detailTabEnvelope },
  { id: 'bytes', label: 'Raw bytes', title: 'The bytes it came in, as text and hex', testId: TEST_IDS.detailTabBytes },
  {
    id: 'frame',
    label: 'Frame',
    title: 'Frame & chunks: its event and the network chunks that carried it',
    testId: TEST_IDS.detailTabFrame,
  },
  { id: 'block', label: 'Block', title: 'The block it belongs to', testId: TEST_IDS.detailTabBlock },
];

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
            title={tab.title}
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
