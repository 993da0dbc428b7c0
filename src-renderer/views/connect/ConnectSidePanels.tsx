import { useState } from 'react';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { formFromCurl } from '../../model/connect-form';
import { errorMessage } from '../../model/errors';
import { TEST_IDS } from '../../testids';

/** The Connect page's curl box: fills the connect form from a pasted curl command, or saves it as a request. */
export function CurlPanel({ app, onFilled }: { app: RendererApp; onFilled: () => void }) {
  const [curl, setCurl] = useState('');
  const [curlError, setCurlError] = useState<string | null>(null);

  const applyCurl = (): void => {
    try {
      app.connectForm.set(formFromCurl(curl, app.connectForm.getSnapshot()));
      setCurlError(null);
      onFilled();
    } catch (error) {
      setCurlError(errorMessage(error));
    }
  };

  return (
    <section className="panel">
      <div className="panel-title">Paste a curl command</div>
      <p className="hint">
        From your terminal or the browser's "Copy as cURL": fills the URL, method, headers and body.
      </p>
      <textarea
        className="input curl-input"
        data-testid={TEST_IDS.curlInput}
        placeholder={
          'curl -N http://localhost:8000/agent/run \\\n  -H \'Content-Type: application/json\' \\\n  -d \'{"user_prompt": "hi"}\''
        }
        spellCheck={false}
        value={curl}
        onChange={(e) => {
          setCurl(e.target.value);
          setCurlError(null);
        }}
      />
      <div className="panel-actions">
        <button
          type="button"
          className="button"
          data-testid={TEST_IDS.curlApply}
          disabled={curl.trim() === ''}
          onClick={applyCurl}
        >
          Fill the form
        </button>
        <button
          type="button"
          className="button"
          data-testid={TEST_IDS.curlImport}
          disabled={curl.trim() === ''}
          title="Save the command as a new request in Requests (sidebar)"
          onClick={() =>
            void app.importCurl(curl).then((imported) => {
              if (!imported) return;
              setCurl('');
              app.notify('Imported', `"${imported.name}" is in Requests.`);
            })
          }
        >
          Save to Requests
        </button>
      </div>
      {curlError && (
        <div className="field-error" data-testid={TEST_IDS.curlError}>
          {curlError}
        </div>
      )}
    </section>
  );
}

/** The Connect page's ways to open what was recorded before: a file, a recent file, a sample. */
export function FilesPanel({ app, onOpenFile }: { app: RendererApp; onOpenFile: () => void }) {
  const recent = useStore(app.recentFiles);
  const samples = useStore(app.samples);
  return (
    <>
      <section className="panel">
        <div className="panel-title">Open a file</div>
        <p className="hint">
          Recordings, SSE captures (curl -N output), NDJSON or JSON envelopes, Anthropic raw events, any stream's events
          saved one JSON object per line, HAR files. Or drop a file anywhere.
        </p>
        <div className="panel-actions">
          <button type="button" className="button" onClick={onOpenFile}>
            Choose a file…
          </button>
        </div>
        {recent.length > 0 && (
          <ul className="recent-list recent-list-panel">
            {recent.slice(0, 6).map((p) => (
              <li key={p}>
                <button type="button" className="recent-file" title={p} onClick={() => void app.openPath(p)}>
                  {p}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {samples.length > 0 && (
        <section className="panel" data-testid={TEST_IDS.samplesPanel}>
          <div className="panel-title">Open a sample</div>
          <p className="hint">
            Recordings of the demo agent that ship with the app, one per kind of thing the inspector shows.
          </p>
          <ul className="sample-list">
            {samples.map((sample) => (
              <li key={sample.id}>
                <button
                  type="button"
                  className="sample"
                  data-testid={TEST_IDS.sampleOpen}
                  data-sample={sample.id}
                  onClick={() => void app.openSample(sample.id)}
                >
                  <span className="sample-title">
                    {sample.title}
                    {sample.sessions > 1 && <span className="sample-count">{sample.sessions} sessions</span>}
                  </span>
                  <span className="sample-summary">{sample.summary}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
