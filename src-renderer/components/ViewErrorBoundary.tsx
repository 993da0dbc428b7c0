import { Component, type ReactNode } from 'react';
import { TEST_IDS } from '../testids';
import { EmptyState } from './EmptyState';

interface Props {
  /** Which view; a new view gets a fresh boundary. */
  readonly view: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: Error | null;
}

/**
 * A view that throws while rendering, or whose code fails to load (a lazy chunk missing
 * after an update), shows what went wrong in place of the view; the rest of the window
 * (sessions, tabs, other views) keeps working.
 */
export class ViewErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.view !== this.props.view && this.state.error) this.setState({ error: null });
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <EmptyState
        title="This view failed"
        testId={TEST_IDS.viewError}
        actions={
          <button type="button" className="button" onClick={() => location.reload()}>
            Reload the window
          </button>
        }
      >
        <p className="view-error-message">{error.message}</p>
        <p>Other views still work. Reloading keeps your sessions: they live in the main process.</p>
      </EmptyState>
    );
  }
}
