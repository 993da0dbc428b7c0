import { useState } from 'react';
import type { FormatChoice } from '../../../src-shared/contract';
import { DIALECTS } from '../../../src-shared/dialects/registry';
import { AGENT_TYPES } from '../../../src-shared/agents/wire-formats';
import type { RendererApp } from '../../model/types';
import { copyText } from '../../app/files';
import { useStore } from '../../app/hooks';
import {
  bodyField,
  demoForm,
  formToCurl,
  formToRequest,
  METHODS,
  providerForm,
  upstreamForm,
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
import { ProxyPanel } from './ProxyPanel';
import './proxy.css';

const FORMAT_OVERRIDES: readonly { value: FormatChoice; label: string }[] = [
  { value: 'auto', label: 'Detect' },
  ...DIALECTS.map((d) => ({ value: d.id, label: d.label })),
];

/** Start a live session: a preset or any endpoint, or fill the form from a curl command. */
export function ConnectView({ app, onOpenFile }: { app: RendererApp; onOpenFile: () => void }) {
  const form = useStore(app.connectForm);
  const host = useStore(app.host);
  const saved = useStore(app.requests).find((r) => r.id === form.savedId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pickerError, setPickerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const demo = host.demo;

  const update = (change: Partial<ConnectForm>): void => {
    app.connectForm.update((current) => ({ ...current, ...change }));
    setErrors({});
  };

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

  const scenario = bodyField(form, 'scenario');
  const demoFormat = bodyField(form, 'format') ?? 'json';
  const agentType = bodyField(form, 'agent_type');
  const scenarioInfo = demo?.scenarios.find((s) => s.id === scenario);
  const providerPreset = demo?.providers.find((p) => p.id === form.preset);

  return (
    <div className="connect-view" data-testid={TEST_IDS.connectView}>
      <div className="connect-main">
        <section className="panel">
          <div className="panel-title">
            Connect to a stream
            {saved && <span className="panel-title-note"> · saved request “{saved.name}”</span>}
          </div>
          <p className="hint">
            The inspector sends this request and decodes the <code>text/event-stream</code> response as it arrives.
            Start with the built-in demo agent, point it at your own agent server, or paste a curl command.
          </p>
          <div className="preset-row" role="radiogroup" aria-label="Preset">
            <button
              type="button"
              role="radio"
              aria-checked={form.preset === 'demo'}
              className={`preset ${form.preset === 'demo' ? 'preset-active' : ''}`}
              data-testid={TEST_IDS.presetDemo}
              disabled={!demo}
              title={demo ? `The demo agent at ${demo.baseUrl}` : 'The demo agent is not running'}
              onClick={() => demo && app.connectForm.set(demoForm(demo))}
            >
              <span className="preset-name">Demo agent</span>
              <span className="preset-sub">built in, scripted scenarios</span>
            </button>
            <button
              type="button"
              role="radio"
              aria-checked={form.preset === 'upstream'}
              className={`preset ${form.preset === 'upstream' ? 'preset-active' : ''}`}
              data-testid={TEST_IDS.presetUpstream}
              onClick={() => app.connectForm.set(upstreamForm())}
            >
              <span className="preset-name">Agent API</span>
              <span className="preset-sub">POST /agent/run on your server</span>
            </button>
            {demo?.providers.map((provider) => (
              <button
                key={provider.id}
                type="button"
                role="radio"
                aria-checked={form.preset === provider.id}
                className={`preset ${form.preset === provider.id ? 'preset-active' : ''}`}
                data-testid={`${TEST_IDS.providerPreset}-${provider.id}`}
                title={`The demo agent's ${provider.title} stream at ${provider.url}`}
                onClick={() => app.connectForm.set(providerForm(provider))}
              >
                <span className="preset-name">{provider.title}</span>
                <span className="preset-sub">
                  POST {new URL(provider.url).pathname}
                  {new URL(provider.url).search}, scripted
                </span>
              </button>
            ))}
            <button
              type="button"
              role="radio"
              aria-checked={form.preset === 'custom'}
              className={`preset ${form.preset === 'custom' ? 'preset-active' : ''}`}
              onClick={() => update({ preset: 'custom' })}
            >
              <span className="preset-name">Custom</span>
              <span className="preset-sub">any URL, method and body</span>
            </button>
          </div>

          {form.preset === 'demo' && demo && (
            <div className="field-row">
              <label className="field">
                <span className="field-label">Scenario</span>
                <select
                  className="select"
                  data-testid={TEST_IDS.demoScenario}
                  value={scenario ?? ''}
                  onChange={(e) => setBodyField('scenario', e.target.value || null)}
                >
                  <option value="">Chosen from the prompt (default: the tour)</option>
                  {demo.scenarios.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.title}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field field-narrow">
                <span className="field-label">Wire format</span>
                <select
                  className="select"
                  data-testid={TEST_IDS.demoFormat}
                  value={demoFormat}
                  onChange={(e) => setBodyField('format', e.target.value)}
                >
                  {demo.formats.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          )}
          {form.preset === 'demo' && scenarioInfo?.description && <p className="hint">{scenarioInfo.description}</p>}
          {providerPreset && (
            <div className="field-row">
              <label className="field">
                <span className="field-label">Scenario</span>
                <select
                  className="select"
                  data-testid={TEST_IDS.providerScenario}
                  value={scenario ?? ''}
                  onChange={(e) => setBodyField('scenario', e.target.value || null)}
                >
                  <option value="">Chosen from the prompt</option>
                  {providerPreset.scenarios.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.title}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          )}
          {providerPreset && (
            <p className="hint">
              {providerPreset.scenarios.find((s) => s.id === scenario)?.description ??
                `Any scenario of the demo's ${providerPreset.title} API; point the URL at the provider to inspect the real stream.`}
            </p>
          )}
          {form.preset === 'upstream' && (
            <div className="field-row">
              <label className="field">
                <span className="field-label">agent_type</span>
                <select
                  className="select"
                  data-testid={TEST_IDS.agentType}
                  value={agentType ?? ''}
                  onChange={(e) => setBodyField('agent_type', e.target.value || null)}
                >
                  <option value="">(not sent: server default)</option>
                  {AGENT_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          )}
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
                {FORMAT_OVERRIDES.map((f) => (
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
