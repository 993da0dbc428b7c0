import { memo, useRef, useState } from 'react';
import type { ResolveRequestInput, SavedRequest } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import { copyText } from '../../app/files';
import { useStore } from '../../app/hooks';
import { TEST_IDS } from '../../testids';
import './requests.css';

type Action = 'rename' | 'duplicate' | `curl-${ResolveRequestInput['mode']}` | 'delete';

const ACTIONS: readonly { value: Action; label: string }[] = [
  { value: 'rename', label: 'Rename' },
  { value: 'duplicate', label: 'Duplicate' },
  { value: 'curl-template', label: 'Copy as curl, {{variables}} kept' },
  { value: 'curl-resolved', label: 'Copy as curl, values filled, secrets hidden' },
  { value: 'curl-with-secrets', label: 'Copy as curl with secret values…' },
  { value: 'delete', label: 'Delete…' },
];

/** The sidebar's collection: the active environment, and the saved requests (open, run, rename, duplicate, copy as curl, delete). */
export const RequestsPanel = memo(function RequestsPanel({ app }: { app: RendererApp }) {
  const requests = useStore(app.requests);
  const environments = useStore(app.environments);
  const form = useStore(app.connectForm);
  const [renaming, setRenaming] = useState<string | null>(null);

  const act = async (saved: SavedRequest, action: Action): Promise<void> => {
    switch (action) {
      case 'rename':
        setRenaming(saved.id);
        return;
      case 'duplicate':
        await app.duplicateRequest(saved.id);
        return;
      case 'delete':
        if (window.confirm(`Delete the saved request "${saved.name}"?`)) await app.deleteRequest(saved.id);
        return;
      default: {
        const mode = action.slice('curl-'.length) as ResolveRequestInput['mode'];
        if (
          mode === 'with-secrets' &&
          !window.confirm('Copy the request with its secret values in plain text to the clipboard?')
        )
          return;
        const curl = await app.requestAsCurl(saved.id, mode);
        if (curl === undefined) return;
        await app.run('Copy as curl', async () => {
          await copyText(curl);
          app.notify(
            'Copied',
            mode === 'with-secrets'
              ? 'The request is on the clipboard as a curl command, secret values included.'
              : 'The request is on the clipboard as a curl command; secret values are not in it.',
          );
        });
      }
    }
  };

  return (
    <section className="requests-panel" data-testid={TEST_IDS.requestsPanel}>
      <div className="sidebar-heading">Requests</div>
      <div className="environment-row">
        <select
          className="select select-small environment-select"
          aria-label="Active environment"
          title="The environment whose {{variables}} fill requests when they are sent"
          data-testid={TEST_IDS.environmentSelect}
          value={environments?.activeId ?? ''}
          onChange={(event) => void app.setActiveEnvironment(event.target.value || null)}
        >
          <option value="">No environment</option>
          {environments?.environments.map((env) => (
            <option key={env.id} value={env.id}>
              {env.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-small"
          data-testid={TEST_IDS.environmentsButton}
          title="Edit environments and their variables"
          onClick={() => app.environmentsOpen.set(true)}
        >
          Edit…
        </button>
      </div>
      <ul className="request-list">
        {requests.length === 0 && (
          <li className="sidebar-empty">None saved. Save the connect form, or import a curl command.</li>
        )}
        {requests.map((saved) => (
          <li key={saved.id}>
            <div
              role="button"
              tabIndex={0}
              className={`request-item ${form.savedId === saved.id ? 'request-item-active' : ''}`}
              data-testid={TEST_IDS.requestItem}
              data-request-id={saved.id}
              title={`${saved.request.method} ${saved.request.url}\nClick to open in the connect form`}
              onClick={() => renaming !== saved.id && app.openRequest(saved.id)}
              onKeyDown={(event) => {
                if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
                event.preventDefault();
                app.openRequest(saved.id);
              }}
            >
              <span className="request-method">{saved.request.method}</span>
              {renaming === saved.id ? (
                <RenameField
                  name={saved.name}
                  onDone={(name) => {
                    setRenaming(null);
                    if (name !== null && name !== saved.name) void app.renameRequest(saved.id, name);
                  }}
                />
              ) : (
                <span className="request-name">{saved.name}</span>
              )}
              <button
                type="button"
                className="icon-button request-run"
                aria-label={`Run ${saved.name}`}
                title="Connect with this request"
                data-testid={TEST_IDS.requestRun}
                onClick={(event) => {
                  event.stopPropagation();
                  void app.runRequest(saved.id);
                }}
              >
                ▶
              </button>
              <select
                className="request-actions"
                aria-label={`More actions for ${saved.name}`}
                data-testid={TEST_IDS.requestActions}
                value=""
                onClick={(event) => event.stopPropagation()}
                onKeyDown={(event) => event.stopPropagation()}
                onChange={(event) => {
                  const action = event.target.value as Action | '';
                  if (action) void act(saved, action);
                }}
              >
                <option value="" disabled hidden>
                  ⋯
                </option>
                {ACTIONS.map((a) => (
                  <option key={a.value} value={a.value}>
                    {a.label}
                  </option>
                ))}
              </select>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
});

/** Enter keeps the new name, Esc or a blank name keeps the old one. */
function RenameField({ name, onDone }: { name: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(name);
  // Enter or Esc ends it; the blur that follows as the field goes must not end it again.
  const ended = useRef(false);
  const finish = (keep: boolean): void => {
    if (ended.current) return;
    ended.current = true;
    onDone(keep && value.trim() !== '' ? value.trim() : null);
  };
  return (
    <input
      className="input request-rename"
      aria-label="New name"
      data-testid={TEST_IDS.requestRename}
      autoFocus
      value={value}
      onClick={(event) => event.stopPropagation()}
      onChange={(event) => setValue(event.target.value)}
      onBlur={() => finish(true)}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') finish(true);
        if (event.key === 'Escape') finish(false);
      }}
    />
  );
}
