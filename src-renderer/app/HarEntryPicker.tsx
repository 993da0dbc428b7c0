import { useState } from 'react';
import type { HarEntry } from '../../src-shared/contract';
import { Badge } from '../components/Badge';
import { formatBytes, formatCount } from '../model/format';
import { harEntrySize, harStreamLabel, initialHarChoice, toggleHarChoice } from '../model/har-entries';
import type { RendererApp, SessionData } from '../model/types';
import { TEST_IDS } from '../testids';
import './har-picker.css';

/**
 * A HAR file of several entries waits for the user to say what to open: every entry with its
 * method, URL, status, type and size, streams marked. The ticked entries open, in file
 * order, as the legs of this session (a run, then its tool-results continuations).
 */
export function HarEntryPicker({ app, session }: { app: RendererApp; session: SessionData }) {
  const entries = session.detail?.harEntries;
  if (!entries) return <div className="view-loading">Reading the HAR file’s entries…</div>;
  return <EntryList app={app} session={session} entries={entries} />;
}

function EntryList({
  app,
  session,
  entries,
}: {
  app: RendererApp;
  session: SessionData;
  entries: readonly HarEntry[];
}) {
  const [chosen, setChosen] = useState(() => initialHarChoice(entries));
  const [opening, setOpening] = useState(false);
  const streams = entries.filter((e) => e.isStream).length;
  const open = (): void => {
    setOpening(true);
    void app.openHarEntries(session.id, chosen).finally(() => setOpening(false));
  };
  return (
    <section className="har-picker" data-testid={TEST_IDS.harPicker}>
      <h2 className="har-picker-title">Choose what to open from {session.summary.title}</h2>
      <p className="har-picker-hint">
        This HAR file holds {formatCount(entries.length)} {entries.length === 1 ? 'entry' : 'entries'},{' '}
        {formatCount(streams)} of them {streams === 1 ? 'a stream' : 'streams'}. Tick one to open it; tick several to
        open them, in this order, as the legs of one session (a run, then its tool-results continuations).
      </p>
      <div className="har-picker-scroll">
        <table className="har-picker-table">
          <thead>
            <tr>
              <th aria-label="Open" />
              <th className="num">#</th>
              <th>Method</th>
              <th className="har-url">URL</th>
              <th className="num">Status</th>
              <th>Type</th>
              <th className="num">Size</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr
                key={entry.index}
                className={entry.isStream ? 'har-stream' : 'dim'}
                data-testid={TEST_IDS.harEntry}
                data-index={entry.index}
              >
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Open entry ${entry.index}`}
                    checked={chosen.includes(entry.index)}
                    onChange={(e) => setChosen(toggleHarChoice(chosen, entry.index, e.target.checked))}
                  />
                </td>
                <td className="num">{entry.index}</td>
                <td>{entry.method}</td>
                <td className="har-url" title={entry.url}>
                  {entry.url}
                </td>
                <td className="num">{entry.status || '—'}</td>
                <td title={entry.mimeType}>
                  {entry.isStream ? (
                    <Badge tone="accent">{harStreamLabel(entry.mimeType)}</Badge>
                  ) : (
                    entry.mimeType || 'no type'
                  )}
                </td>
                <td className="num">{harEntrySize(entry, formatBytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="har-picker-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid={TEST_IDS.harOpen}
          disabled={chosen.length === 0 || opening}
          onClick={open}
        >
          {chosen.length > 1 ? `Open ${chosen.length} entries as legs` : 'Open'}
        </button>
        <button type="button" className="button" onClick={() => void app.closeSession(session.id)}>
          Cancel
        </button>
      </div>
    </section>
  );
}
