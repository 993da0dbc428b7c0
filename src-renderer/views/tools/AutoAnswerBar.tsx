import { useState } from 'react';
import { useStore } from '../../app/hooks';
import type { AppModel } from '../../model/types';
import { DEFAULT_AUTO_ANSWER, type AutoAnswerRule } from '../../model/tools';
import { autoAnswering } from './auto-answer';
import { TOOL_IDS } from './testids';

/** While auto-answer is on, this bar says so above every view, with the rules and an off switch. */
export function AutoAnswerBar({ app }: { app: AppModel }) {
  const { store } = autoAnswering(app);
  const settings = useStore(store);
  const [editing, setEditing] = useState(false);
  const setRules = (rules: AutoAnswerRule[]): void => store.set({ ...settings, rules });
  return (
    <div className="auto-answer-bar" data-testid={TOOL_IDS.autoAnswerBar} role="status">
      <div className="auto-answer-line">
        <span className="auto-answer-flag">AUTO-ANSWER ON</span>
        <span className="muted">frontend tool prompts are answered automatically:</span>
        <span className="mono small">
          {settings.rules.length === 0
            ? '(no rules: nothing is answered)'
            : settings.rules
                .map((r) => `${r.tool} → ${JSON.stringify(r.content)}${r.isError ? ' (error)' : ''}`)
                .join(' · ')}
        </span>
        <span className="spacer" />
        <button
          type="button"
          className="link-button small"
          onClick={() => setEditing((e) => !e)}
          data-testid={TOOL_IDS.autoAnswerEdit}
        >
          {editing ? 'Done' : 'Edit rules'}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => store.set({ ...settings, enabled: false })}
          data-testid={TOOL_IDS.autoAnswerToggle}
        >
          Turn off
        </button>
      </div>
      {editing && (
        <table className="auto-answer-rules" data-testid={TOOL_IDS.autoAnswerRules}>
          <thead>
            <tr>
              <th>tool name (* = any other)</th>
              <th>result content</th>
              <th title="A call that waits for its approval is approved by its rule, or denied when the rule is an error">
                is_error (denies an approval)
              </th>
              <th />
            </tr>
          </thead>
          <tbody>
            {settings.rules.map((rule, index) => (
              <tr key={index} data-testid={TOOL_IDS.autoAnswerRule}>
                <td>
                  <input
                    className="input mono"
                    value={rule.tool}
                    onChange={(e) =>
                      setRules(settings.rules.map((r, i) => (i === index ? { ...r, tool: e.target.value } : r)))
                    }
                    spellCheck={false}
                  />
                </td>
                <td>
                  <input
                    className="input mono"
                    value={rule.content}
                    onChange={(e) =>
                      setRules(settings.rules.map((r, i) => (i === index ? { ...r, content: e.target.value } : r)))
                    }
                    spellCheck={false}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    checked={rule.isError}
                    onChange={(e) =>
                      setRules(settings.rules.map((r, i) => (i === index ? { ...r, isError: e.target.checked } : r)))
                    }
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label="Remove rule"
                    onClick={() => setRules(settings.rules.filter((_, i) => i !== index))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td colSpan={4}>
                <button
                  type="button"
                  className="link-button small"
                  onClick={() => setRules([...settings.rules, { tool: '', content: '', isError: false }])}
                  data-testid={TOOL_IDS.autoAnswerAdd}
                >
                  + Add rule
                </button>
                <button type="button" className="link-button small" onClick={() => setRules(DEFAULT_AUTO_ANSWER.rules)}>
                  Reset to defaults
                </button>
              </td>
            </tr>
          </tfoot>
        </table>
      )}
    </div>
  );
}
