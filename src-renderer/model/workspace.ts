import type {
  ConnectRequest,
  EnvironmentInput,
  EnvironmentsState,
  InspectorService,
  RecentSessions,
  ResolveRequestInput,
  SavedRequest,
  SessionSummary,
} from '../../src-shared/contract';
import { requestToCurl, type ConnectForm } from './connect-form';
import { copyName, defaultRequestName, formFromSaved, formToTemplate, templateFromCurl } from './requests';
import { createStore, type Store } from './store';
import type { ReadableStore } from './types';

/** What the workspace needs of the rest of the app. */
export interface WorkspaceDeps {
  readonly service: InspectorService;
  readonly connectForm: Store<ConnectForm>;
  /** Runs a command, reporting its failure under `context`; undefined on failure. */
  readonly run: <T>(context: string, action: () => Promise<T>) => Promise<T | undefined>;
  readonly reportError: (context: string, error: unknown) => void;
  readonly notify: (context: string, message: string) => void;
  /** Shows the connect page (a saved request opened in the form). */
  readonly showConnect: () => void;
  readonly connect: (request: ConnectRequest) => Promise<SessionSummary | undefined>;
}

/**
 * The user's workspace kept in main: the saved requests of the sidebar's collection, the
 * environments (secret values never here: only whether each has one) and the recent sessions.
 * Each command that changes one of them shows main's list afterwards.
 */
export interface WorkspaceModel {
  readonly requests: ReadableStore<readonly SavedRequest[]>;
  readonly environments: ReadableStore<EnvironmentsState | null>;
  /** The environments editor is open. */
  readonly environmentsOpen: Store<boolean>;
  /** Live sessions of earlier runs, kept as recordings; null until loaded. */
  readonly recentSessions: ReadableStore<RecentSessions | null>;
  /** Saves the connect form: over the saved request it came from, or (asNew, or none) as a new one. */
  saveFormAsRequest(asNew?: boolean): Promise<SavedRequest | undefined>;
  /** Shows a saved request in the connect form. */
  openRequest(id: string): void;
  /** Connects with a saved request (its name names the session). */
  runRequest(id: string): Promise<SessionSummary | undefined>;
  renameRequest(id: string, name: string): Promise<boolean>;
  duplicateRequest(id: string): Promise<SavedRequest | undefined>;
  deleteRequest(id: string): Promise<void>;
  /** A saved request as a curl command: `{{variables}}` kept, filled with secrets masked, or filled whole. */
  requestAsCurl(id: string, mode: ResolveRequestInput['mode']): Promise<string | undefined>;
  /** Saves a pasted curl command as a new request of the collection. */
  importCurl(command: string): Promise<SavedRequest | undefined>;
  saveEnvironment(input: EnvironmentInput): Promise<boolean>;
  deleteEnvironment(id: string): Promise<void>;
  setActiveEnvironment(id: string | null): Promise<void>;
  setRecentSessionsKeep(keep: number): Promise<void>;
  refreshRecentSessions(): Promise<void>;
  /** Saved requests, environments and recent sessions: each shown as soon as it is there. */
  readonly load: () => Promise<void>;
}

export function createWorkspace(deps: WorkspaceDeps): WorkspaceModel {
  const { service, connectForm, run } = deps;
  const requests = createStore<readonly SavedRequest[]>([]);
  const environments = createStore<EnvironmentsState | null>(null);
  const recentSessions = createStore<RecentSessions | null>(null);

  const savedRequest = (id: string): SavedRequest => {
    const found = requests.getSnapshot().find((r) => r.id === id);
    if (!found) throw new Error('That saved request is gone (deleted in another window?).');
    return found;
  };
  /** Runs a command that changes the collection, then shows main's list. */
  async function changeRequests<T>(context: string, action: () => Promise<T>): Promise<T | undefined> {
    const result = await run(context, action);
    const list = await run('Saved requests', () => service.listRequests());
    if (list) requests.set(list);
    return result;
  }
  async function changeEnvironments(context: string, action: () => Promise<EnvironmentsState>): Promise<boolean> {
    const state = await run(context, action);
    if (state) environments.set(state);
    return state !== undefined;
  }

  const workspace: WorkspaceModel = {
    requests,
    environments,
    environmentsOpen: createStore(false),
    recentSessions,
    async saveFormAsRequest(asNew = false) {
      const form = connectForm.getSnapshot();
      const result = formToTemplate(form);
      if (!result.ok) {
        deps.reportError('Save request', Object.values(result.errors)[0] ?? 'The form is incomplete.');
        return undefined;
      }
      const existing =
        !asNew && form.savedId !== null ? requests.getSnapshot().find((r) => r.id === form.savedId) : undefined;
      const name = existing?.name ?? defaultRequestName(result.template, form.title);
      const saved = await changeRequests('Save request', () =>
        service.saveRequest({ ...(existing ? { id: existing.id } : {}), name, request: result.template }),
      );
      if (saved) {
        connectForm.update((f) => ({ ...f, savedId: saved.id }));
        deps.notify('Saved', `"${saved.name}" is in Requests.`);
      }
      return saved;
    },
    openRequest(id) {
      const found = requests.getSnapshot().find((r) => r.id === id);
      if (!found) {
        deps.reportError('Open request', 'That saved request is gone (deleted in another window?).');
        return;
      }
      connectForm.set(formFromSaved(found));
      deps.showConnect();
    },
    async runRequest(id) {
      const found = await run('Run request', () => Promise.resolve(savedRequest(id)));
      return found ? deps.connect({ ...found.request, title: found.name }) : undefined;
    },
    async renameRequest(id, name) {
      const saved = await changeRequests('Rename request', async () =>
        service.saveRequest({ id, name, request: savedRequest(id).request }),
      );
      return saved !== undefined;
    },
    duplicateRequest: (id) =>
      changeRequests('Duplicate request', async () => {
        const original = savedRequest(id);
        return service.saveRequest({
          name: copyName(
            original.name,
            requests.getSnapshot().map((r) => r.name),
          ),
          request: original.request,
        });
      }),
    async deleteRequest(id) {
      await changeRequests('Delete request', () => service.deleteRequest({ id }));
      if (connectForm.getSnapshot().savedId === id) connectForm.update((f) => ({ ...f, savedId: null }));
    },
    async requestAsCurl(id, mode) {
      const resolved = await run('Copy as curl', async () =>
        service.resolveRequest({ request: savedRequest(id).request, mode }),
      );
      return resolved ? requestToCurl(resolved) : undefined;
    },
    importCurl: (command) =>
      changeRequests('Import curl', async () => {
        const template = templateFromCurl(command);
        return service.saveRequest({ name: defaultRequestName(template), request: template });
      }),
    saveEnvironment: (input) => changeEnvironments('Save environment', () => service.saveEnvironment(input)),
    async deleteEnvironment(id) {
      await changeEnvironments('Delete environment', () => service.deleteEnvironment({ id }));
    },
    async setActiveEnvironment(id) {
      await changeEnvironments('Environment', () => service.setActiveEnvironment({ id }));
    },
    async setRecentSessionsKeep(keep) {
      const state = await run('Recent sessions', () => service.setRecentSessionsKeep({ keep }));
      if (state) recentSessions.set(state);
    },
    async refreshRecentSessions() {
      const state = await run('Recent sessions', () => service.listRecentSessions());
      if (state) recentSessions.set(state);
    },
    load: async () => {
      await Promise.all([
        run('Saved requests', () => service.listRequests()).then((list) => list && requests.set(list)),
        run('Environments', () => service.listEnvironments()).then((state) => state && environments.set(state)),
        workspace.refreshRecentSessions(),
      ]);
    },
  };
  return workspace;
}
