import { useState } from 'react';
import type { EnvironmentView, VariableInput } from '../../../src-shared/contract';
import { VARIABLE_NAME } from '../../../src-shared/requests/variables';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { Dialog } from '../../components/Dialog';
import { TEST_IDS } from '../../testids';

interface DraftVariable {
  readonly key: number;
  readonly name: string;
  readonly secret: boolean;
  /** What was typed; for a secret that main holds, '' until the user types a new one. */
  readonly value: string;
  /** A secret main already holds (its value is never sent here). */
  readonly held: boolean;
}

interface Draft {
  readonly id: string | null;
  readonly name: string;
  readonly variables: readonly DraftVariable[];
}

let nextKey = 1;
const draftOf = (env: EnvironmentView | null): Draft => ({
  id: env?.id ?? null,
  name: env?.name ?? '',
  variables: (env?.variables ?? []).map((v) => ({
    key: nextKey++,
    name: v.name,
    secret: v.secret,
    value: v.value ?? '',
    held: v.secret && v.hasValue,
  })),
});

/** What is sent to main: a held secret without a new value is sent without one (main keeps it). */
function toInput(variable: DraftVariable): VariableInput {
  if (variable.secret && variable.held && variable.value === '') return { name: variable.name.trim(), secret: true };
  return { name: variable.name.trim(), secret: variable.secret, value: variable.value };
}

function problemOf(draft: Draft): string | null {
  if (draft.name.trim() === '') return 'Name the environment.';
  const names = new Set<string>();
  for (const v of draft.variables) {
    const name = v.name.trim();
    if (!VARIABLE_NAME.test(name))
      return `"${v.name}" is not a variable name: letters, digits, _ . and -, starting with a letter or _.`;
    if (names.has(name)) return `${name} is defined twice.`;
    names.add(name);
  }
  return null;
}

/** Environments and their variables; secrets are typed here once and kept by main, shown only as masked. */
export function EnvironmentsDialog({ app, onClose }: { app: RendererApp; onClose: () => void }) {
  const state = useStore(app.environments);
  const environments = state?.environments ?? [];
  const [selected, setSelected] = useState<string | null>(state?.activeId ?? environments[0]?.id ?? null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(environments.find((e) => e.id === selected) ?? null));
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (env: EnvironmentView | null): void => {
    setSelected(env?.id ?? null);
    setDraft(draftOf(env));
    setProblem(null);
  };
  const setVariable = (key: number, change: Partial<DraftVariable>): void =>
    setDraft((d) => ({ ...d, variables: d.variables.map((v) => (v.key === key ? { ...v, ...change } : v)) }));

  const save = async (): Promise<void> => {
    const found = problemOf(draft);
    setProblem(found);
    if (found) return;
    const ok = await app.saveEnvironment({
      ...(draft.id ? { id: draft.id } : {}),
      name: draft.name.trim(),
      variables: draft.variables.map(toInput),
    });
    if (!ok) return;
    const saved = app.environments
      .getSnapshot()
      ?.environments.find((e) => (draft.id ? e.id === draft.id : e.name === draft.name.trim()));
    choose(saved ?? null);
  };

  return (
    <Dialog title="Environments" className="environments" testId={TEST_IDS.environmentsDialog} onClose={onClose}>
      <p className="hint">
        Write <code>{'{{name}}'}</code> in a request's URL, headers or body; the active environment fills it in when the
        request is sent. Secret values are kept by the inspector and never shown again.
      </p>
      {state && (
        <p
          className={`secret-storage ${state.secretStorage.encrypted ? '' : 'secret-storage-plain'}`}
          data-testid={TEST_IDS.secretStorage}
        >
          {state.secretStorage.encrypted ? '🔒 ' : '⚠ '}
          {state.secretStorage.description}
        </p>
      )}
      <div className="environments-body">
        <ul className="environment-tabs" role="tablist" aria-label="Environments">
          {environments.map((env) => (
            <li key={env.id}>
              <button
                type="button"
                role="tab"
                aria-selected={selected === env.id}
                className={`environment-tab ${selected === env.id ? 'environment-tab-active' : ''}`}
                data-testid={TEST_IDS.environmentTab}
                onClick={() => choose(env)}
              >
                {env.name}
                {state?.activeId === env.id && <span className="environment-active"> active</span>}
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="link-button"
              data-testid={TEST_IDS.environmentNew}
              onClick={() => choose(null)}
            >
              + New environment
            </button>
          </li>
        </ul>
        <div className="environment-editor">
          <label className="field">
            <span className="field-label">Name</span>
            <input
              className="input"
              data-testid={TEST_IDS.environmentName}
              value={draft.name}
              placeholder="Dev, Staging, Local…"
              onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
            />
          </label>
          <table className="variables-table">
            <thead>
              <tr>
                <th>Variable</th>
                <th>Value</th>
                <th title="Secret values are kept by main, masked here, and hidden in recordings, exports and copies">
                  Secret
                </th>
                <th />
              </tr>
            </thead>
            <tbody>
              {draft.variables.length === 0 && (
                <tr>
                  <td colSpan={4} className="hint">
                    No variables yet: add base_url, token…
                  </td>
                </tr>
              )}
              {draft.variables.map((v) => (
                <tr key={v.key} data-testid={TEST_IDS.variableRow}>
                  <td>
                    <input
                      className="input variable-input"
                      aria-label="Variable name"
                      spellCheck={false}
                      data-testid={TEST_IDS.variableName}
                      value={v.name}
                      placeholder="base_url"
                      onChange={(e) => setVariable(v.key, { name: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      className="input variable-input"
                      aria-label={`Value of ${v.name || 'the variable'}`}
                      spellCheck={false}
                      autoComplete="off"
                      type={v.secret ? 'password' : 'text'}
                      data-testid={TEST_IDS.variableValue}
                      value={v.value}
                      placeholder={v.secret ? (v.held ? '•••••••• kept (type to replace)' : 'secret value') : 'value'}
                      onChange={(e) => setVariable(v.key, { value: e.target.value })}
                    />
                  </td>
                  <td className="variables-secret">
                    <input
                      type="checkbox"
                      aria-label={`${v.name || 'Variable'} is secret`}
                      data-testid={TEST_IDS.variableSecret}
                      checked={v.secret}
                      onChange={(e) => setVariable(v.key, { secret: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Remove ${v.name || 'variable'}`}
                      data-testid={TEST_IDS.variableRemove}
                      onClick={() => setDraft((d) => ({ ...d, variables: d.variables.filter((x) => x.key !== v.key) }))}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button
            type="button"
            className="link-button"
            data-testid={TEST_IDS.variableAdd}
            onClick={() =>
              setDraft((d) => ({
                ...d,
                variables: [...d.variables, { key: nextKey++, name: '', secret: false, value: '', held: false }],
              }))
            }
          >
            + Add variable
          </button>
          {problem && <div className="field-error">{problem}</div>}
          <div className="panel-actions environment-actions">
            <button
              type="button"
              className="button button-primary"
              data-testid={TEST_IDS.environmentSave}
              onClick={() => void save()}
            >
              {draft.id ? 'Save' : 'Create'}
            </button>
            {draft.id && state?.activeId !== draft.id && (
              <button type="button" className="button" onClick={() => void app.setActiveEnvironment(draft.id)}>
                Make active
              </button>
            )}
            {draft.id && (
              <button
                type="button"
                className="button button-danger"
                data-testid={TEST_IDS.environmentDelete}
                onClick={() => {
                  if (draft.id && window.confirm(`Delete the environment "${draft.name}" and its variables?`))
                    void app.deleteEnvironment(draft.id).then(() => choose(null));
                }}
              >
                Delete
              </button>
            )}
          </div>
        </div>
      </div>
    </Dialog>
  );
}
