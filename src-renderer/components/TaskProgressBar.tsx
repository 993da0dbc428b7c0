import type { TaskProgress } from '../../src-shared/contract';
import { progressView } from '../model/task-progress';
import { TEST_IDS } from '../testids';

/**
 * The progress of a long open, upload or export of the session, as main reports it: one bar
 * whose lighter fill is what has arrived and whose strong fill is what is decoded, with the
 * bytes and the rates beside it.
 */
export function TaskProgressBar({ progress }: { progress: TaskProgress }) {
  const view = progressView(progress);
  const percent = Math.round(view.decoded * 100);
  return (
    <div className="task-progress" data-testid={TEST_IDS.taskProgress}>
      <span className="task-progress-title">{view.title}</span>
      <div
        className="task-progress-track"
        role="progressbar"
        aria-label={view.title}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${view.bytes}, ${view.rate}`}
      >
        <div className="task-progress-received" style={{ transform: `scaleX(${view.received})` }} />
        <div className="task-progress-decoded" style={{ transform: `scaleX(${view.decoded})` }} />
      </div>
      <span className="task-progress-bytes" data-testid={TEST_IDS.taskProgressBytes}>
        {view.bytes}
      </span>
      <span className="task-progress-rate" data-testid={TEST_IDS.taskProgressRate}>
        {view.rate}
      </span>
    </div>
  );
}
