import type { SessionDiff } from '../../../src-shared/diff/types';
import type { AppModel } from '../../model/types';
import { firstInterestingRow } from '../../model/diff';
import { createDiffRunner, type ComparePair, type DiffRunner } from '../../model/diff-runner';
import { createStore, type Store } from '../../model/store';
import type { ExportedDiff } from './ExportedDiff';

/**
 * The Diff view's state, apart from the view so that opening a pair (from the session header)
 * does not pull the view and its editor into the first bundle: the view is loaded lazily.
 */

export interface DiffState {
  left: string | null;
  right: string | null;
  flatten: 'auto' | 'on';
  /** A comparison is running (main computes one at a time; see diff-runner). */
  busy: boolean;
  diff: SessionDiff | null;
  /** One text per side of the whole transcript, for the transcript diff editor. */
  transcript: { left: string; right: string } | null;
  /** The pair the diff was computed for (the pickers may have moved since). */
  of: ComparePair | null;
  error: string | null;
  selected: number | null;
  /** A diff read back from its export, shown instead of the open sessions' until closed. */
  exported: ExportedDiff | null;
  /** Why the last file chosen as an exported diff could not be shown. */
  exportError: string | null;
}

const INITIAL: DiffState = {
  left: null,
  right: null,
  flatten: 'auto',
  busy: false,
  diff: null,
  transcript: null,
  of: null,
  error: null,
  selected: null,
  exported: null,
  exportError: null,
};

interface DiffModel {
  store: Store<DiffState>;
  runner: DiffRunner;
}

/** The diff survives switching tabs: one state per app. */
const models = new WeakMap<AppModel, DiffModel>();

export function diffModel(app: AppModel): DiffModel {
  let model = models.get(app);
  if (!model) {
    const store = createStore(INITIAL);
    const runner = createDiffRunner(
      (pair) =>
        app.diffSessions({
          left: pair.left,
          right: pair.right,
          ...(pair.flattenAgents ? { flattenAgents: true } : {}),
        }),
      {
        onBusy: (busy) => store.update((s) => ({ ...s, busy, ...(busy ? { error: null } : {}) })),
        onResult: (pair, { diff, transcript }) =>
          store.update((s) => ({
            ...s,
            diff,
            transcript,
            of: pair,
            error: null,
            selected: firstInterestingRow(diff.rows),
          })),
        onError: (_pair, error) => {
          store.update((s) => ({ ...s, error: error instanceof Error ? error.message : String(error) }));
          app.reportError('Diff', error);
        },
      },
    );
    model = { store, runner };
    models.set(app, model);
  }
  return model;
}

/** Opens the Diff view on this pair (the pickers show it; the comparison runs when the view shows). */
export function showDiff(app: AppModel, left: string, right: string): void {
  diffModel(app).store.update((s) => ({ ...s, left, right }));
  app.navigate('diff');
}
