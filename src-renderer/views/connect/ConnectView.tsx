import { useState, type ChangeEvent } from 'react';
import type { FormatChoice } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import { FORMAT_CHOICES } from '../../model/format-choices';
import { copyText } from '../../app/files';
import { useStore } from '../../app/hooks';
import { useStableHandler } from '../../app/use-stable-handler';
import { Checkbox } from '../../components/Checkbox';
import {
  formToCurl,
  formToRequest,
  METHODS,
  withBodyField,
  type BodyKind,
  type ConnectForm,
  type FieldErrors,
} from '../../model/connect-form';
import { errorMessage } from '../../model/errors';
import { INLINE_MODE_TABLE, INLINE_MODES, type InlineMode } from '../../../src-shared/inline/types';
import { CodeView } from '../../editor/CodeView';
import { TEST_IDS } from '../../testids';
import { CurlPanel, FilesPanel } from './ConnectSidePanels';
import { HeadersTable } from './HeadersTable';
import { PresetPicker } from './PresetPicker';
import { ProxyPanel } from './ProxyPanel';
import './proxy.css';

/** Start a live session: a preset or any endpoint, or fill the form from a curl command. */
export function ConnectView({ app, onOpenFile }: { app: RendererApp; onOpenFile: () => void }) {
  const form = useStore(app.connectForm);
  const saved = useStore(app.requests).find((r) => r.id === form.savedId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pickerError, setPickerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const update = (change: Partial<ConnectForm>): void => {
    app.connectForm.update((current) => ({ ...current, ...change }));
    setErrors({});
  };

  // Stable, so that the memoised checkbox does not render (and write its attributes) with every render of the form.
  const toggleAnyContentType = useStableHandler((e: ChangeEvent<HTMLInputElement>) =>
    update({ anyContentType: e.target.checked }),
  );

  const setBodyField = (field: string, value: string | null): void => {
    try {
      app.connectForm.set(withBodyField(app.connectForm.getSnapshot(), field, value));
      setPickerError(null);
    } catch (error) {
      setPickerError(errorMessage(error));
    }
  };

  const connect = async (): Promise<void> => {
    const result = formToRequest(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      // A name typed for this run names this run only; the next one is named after what it connects to.
      if (await app.connect(result.request)) app.connectForm.update((current) => ({ ...current, title: '' }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="connect-view" data-testid={TEST_IDS.connectView}>
      <div className="connect-main">
        <section className="panel">
          <div className="panel-title">
            Connect to a stream
            {saved && <span className="panel-title-note"> · saved request “{saved.name}”</span>}
          </div>
          <p className="hint">
            The inspector sends this request and decodes the streamed response as it arrives:{' '}
            <code>text/event-stream</code>, NDJSON or a JSON array sent element by element. Start with the built-in demo
            agent, point it at your own agent server, or paste a curl command.
          </p>
          <PresetPicker
            app={app}
            form={form}
            onCustom={() => update({ preset: 'custom' })}
            setBodyField={setBodyField}
          />
          {pickerError && <div className="field-error">{pickerError}</div>}

          <div className="request-line">
            <select
              className="select method-select"
              aria-label="Method"
              data-testid={TEST_IDS.connectMethod}
              value={form.method}
              onChange={(e) => update({ method: e.target.value })}
            >
              {[...new Set([...METHODS, form.method])].map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <input
              className={`input url-input ${errors.url ? 'input-invalid' : ''}`}
              aria-label="URL"
              placeholder="https://agent.example.com/agent/run"
              spellCheck={false}
              data-testid={TEST_IDS.connectUrl}
              value={form.url}
              onChange={(e) => update({ url: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void connect();
              }}
            />
            <button
              type="button"
              className="button button-primary connect-button"
              data-testid={TEST_IDS.connectButton}
              disabled={busy}
              onClick={() => void connect()}
              title="Connect (Ctrl+Enter)"
            >
              {busy ? 'Connecting…' : 'Connect'}
            </button>
          </div>
          {(errors.url || errors.method) && (
            <div className="field-error" data-testid={TEST_IDS.connectError}>
              {errors.url ?? errors.method}
            </div>
          )}

          <HeadersTable form={form} onChange={(headers) => update({ headers })} error={errors.headers} />

          <div className="subsection">
            <div className="subsection-title">
              Body
              <select
                className="select select-small"
                aria-label="Body kind"
                data-testid={TEST_IDS.bodyKind}
                value={form.bodyKind}
                onChange={(e) => update({ bodyKind: e.target.value as BodyKind })}
              >
                <option value="json">JSON</option>
                <option value="raw">Raw text</option>
                <option value="none">None</option>
              </select>
            </div>
            {form.bodyKind !== 'none' && (
              <div className={`body-editor ${errors.body ? 'input-invalid' : ''}`}>
                <CodeView
                  value={form.body}
                  language={form.bodyKind === 'json' ? 'json' : 'plaintext'}
                  readOnly={false}
                  onChange={(body) => update({ body })}
                  height={200}
                  ariaLabel="Request body"
                  testId={TEST_IDS.bodyEditor}
                />
              </div>
            )}
            {errors.body && (
              <div className="field-error" data-testid={TEST_IDS.connectError}>
                {errors.body}
              </div>
            )}
          </div>

          <div className="field-row">
            <label className="field field-narrow">
              <span className="field-label">Decode as</span>
              <select
                className="select"
                data-testid={TEST_IDS.formatOverride}
                value={form.format}
                onChange={(e) => update({ format: e.target.value as FormatChoice })}
              >
                {FORMAT_CHOICES.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="field field-narrow">
              <span className="field-label">In-text protocols</span>
              <select
                className="select"
                data-testid={TEST_IDS.inlineMode}
                title="How the model's text is read for tool tags and sentinels (docs/inline.md)"
                value={form.inline}
                onChange={(e) => update({ inline: e.target.value as InlineMode })}
              >
                {INLINE_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {INLINE_MODE_TABLE[mode].label}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="field-label">Session title (optional)</span>
              <input
                className="input"
                value={form.title}
                placeholder="named after the endpoint when empty"
                onChange={(e) => update({ title: e.target.value })}
              />
            </label>
            <div className="field field-button">
              <button
                type="button"
                className="button"
                data-testid={TEST_IDS.formCopyCurl}
                onClick={() =>
                  void app.run('Copy as curl', async () => {
                    await copyText(formToCurl(form));
                    app.notify('Copied', 'The request is on the clipboard as a curl command.');
                  })
                }
              >
                Copy as curl
              </button>
            </div>
          </div>
          <label className="check-line">
            <Checkbox
              data-testid={TEST_IDS.anyContentType}
              checked={form.anyContentType}
              onChange={toggleAnyContentType}
            />
            <span>
              Decode any content type: a stream the server labels <code>text/plain</code> or{' '}
              <code>application/json</code> (otherwise such a response is shown as the answer it is)
            </span>
          </label>
          <div className="panel-actions connect-save">
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.saveRequest}
              title={saved ? `Save the form over "${saved.name}"` : 'Save the form in Requests (sidebar)'}
              onClick={() => void app.saveFormAsRequest()}
            >
              {saved ? 'Save request' : 'Save to Requests'}
            </button>
            {saved && (
              <button
                type="button"
                className="button"
                data-testid={TEST_IDS.saveRequestAsNew}
                onClick={() => void app.saveFormAsRequest(true)}
              >
                Save as new
              </button>
            )}
            <span className="hint">
              Use <code>{'{{base_url}}'}</code>, <code>{'{{token}}'}</code> to take values from the active environment;{' '}
              <code>{'{{demo_url}}'}</code> is the built-in demo agent.
            </span>
          </div>
        </section>
      </div>

      <div className="connect-side">
        <CurlPanel app={app} onFilled={() => setErrors({})} />
        <ProxyPanel app={app} />
        <FilesPanel app={app} onOpenFile={onOpenFile} />
      </div>
    </div>
  );
}
