import { headerRow, type ConnectForm } from '../../model/connect-form';
import { TEST_IDS } from '../../testids';

/** The request headers as editable rows: name, value, and whether each is sent. */
export function HeadersTable({
  form,
  onChange,
  error,
}: {
  form: ConnectForm;
  onChange: (headers: ConnectForm['headers']) => void;
  error: string | undefined;
}) {
  const rows = form.headers;
  const set = (id: number, change: Partial<{ name: string; value: string; enabled: boolean }>): void =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...change } : r)));
  return (
    <div className="subsection">
      <div className="subsection-title">
        Headers
        <button
          type="button"
          className="link-button"
          data-testid={TEST_IDS.headerAdd}
          onClick={() => onChange([...rows, headerRow()])}
        >
          + Add
        </button>
      </div>
      <table className="headers-table" data-testid={TEST_IDS.headersTable}>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={4} className="hint">
                No headers. Content-Type is set for JSON bodies; add Authorization or others here.
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="headers-check">
                <input
                  type="checkbox"
                  aria-label="Send this header"
                  checked={row.enabled}
                  onChange={(e) => set(row.id, { enabled: e.target.checked })}
                />
              </td>
              <td>
                <input
                  className="input"
                  placeholder="Name"
                  spellCheck={false}
                  data-testid={TEST_IDS.headerName}
                  value={row.name}
                  onChange={(e) => set(row.id, { name: e.target.value })}
                />
              </td>
              <td>
                <input
                  className="input"
                  placeholder="Value"
                  spellCheck={false}
                  data-testid={TEST_IDS.headerValue}
                  value={row.value}
                  onChange={(e) => set(row.id, { value: e.target.value })}
                />
              </td>
              <td className="headers-remove">
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Remove header"
                  data-testid={TEST_IDS.headerRemove}
                  onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <div className="field-error">{error}</div>}
    </div>
  );
}
