import type { ReactNode } from 'react';
import { AGENT_TYPES } from '../../../src-shared/agents/wire-formats';
import { useStore } from '../../app/hooks';
import { bodyField, demoForm, providerForm, upstreamForm, type ConnectForm } from '../../model/connect-form';
import type { RendererApp } from '../../model/types';
import { TEST_IDS } from '../../testids';

/**
 * What the connect form starts from: the demo agent (its scenario and wire format), the
 * agent API (its agent_type), one of the demo's provider APIs (its scenario), or a custom
 * request. Choosing a preset fills the form; the pickers write the body's fields.
 */
export function PresetPicker({
  app,
  form,
  onCustom,
  setBodyField,
}: {
  app: RendererApp;
  form: ConnectForm;
  onCustom: () => void;
  setBodyField: (field: string, value: string | null) => void;
}) {
  const demo = useStore(app.host).demo;
  const scenario = bodyField(form, 'scenario');
  const demoFormat = bodyField(form, 'format') ?? 'json';
  const agentType = bodyField(form, 'agent_type');
  const scenarioInfo = demo?.scenarios.find((s) => s.id === scenario);
  const providerPreset = demo?.providers.find((p) => p.id === form.preset);

  return (
    <>
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
            <span className="preset-sub">POST {breakableUrlPath(provider.url)}, scripted</span>
          </button>
        ))}
        <button
          type="button"
          role="radio"
          aria-checked={form.preset === 'custom'}
          className={`preset ${form.preset === 'custom' ? 'preset-active' : ''}`}
          onClick={onCustom}
        >
          <span className="preset-name">Custom</span>
          <span className="preset-sub">any URL, method and body</span>
        </button>
      </div>

      {form.preset === 'demo' && demo && (
        <div className="field-row">
          <ScenarioSelect
            testId={TEST_IDS.demoScenario}
            scenarios={demo.scenarios}
            unset="Chosen from the prompt (default: the tour)"
            value={scenario}
            onChange={(id) => setBodyField('scenario', id)}
          />
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
          <ScenarioSelect
            testId={TEST_IDS.providerScenario}
            scenarios={providerPreset.scenarios}
            unset="Chosen from the prompt"
            value={scenario}
            onChange={(id) => setBodyField('scenario', id)}
          />
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
    </>
  );
}

/** A demo or provider scenario for the body's `scenario` field; the empty choice sends none. */
function ScenarioSelect({
  testId,
  scenarios,
  unset,
  value,
  onChange,
}: {
  testId: string;
  scenarios: readonly { id: string; title: string }[];
  unset: string;
  value: string | null | undefined;
  onChange: (id: string | null) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">Scenario</span>
      <select
        className="select"
        data-testid={testId}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{unset}</option>
        {scenarios.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A URL's path and query, with line-break opportunities after each '/' and ':' and before the
 * query, so a long endpoint (Gemini's) wraps at its parts in a narrow card, not mid-word.
 */
function breakableUrlPath(url: string): ReactNode[] {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`
    .split(/(?<=[/:])|(?=\?)/)
    .flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]));
}
