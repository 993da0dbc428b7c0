import { Dialog } from '../components/Dialog';
import { REPLAY_KEYS } from '../model/replay';
import { TEST_IDS } from '../testids';
import { SHORTCUTS, TABLE_KEYS } from './shortcuts';

/** The keyboard shortcuts and a short "what am I looking at", on `?`. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const groups = ['General', 'Views', 'Timeline'] as const;
  return (
    <Dialog title="Keyboard shortcuts" className="help" testId={TEST_IDS.helpOverlay} onClose={onClose}>
      <div className="help-columns">
        {groups.map((group) => (
          <KeyTable
            key={group}
            title={group}
            keys={[...SHORTCUTS.filter((s) => s.group === group), ...(group === 'Timeline' ? TABLE_KEYS : [])]}
          />
        ))}
        <KeyTable title="Replay" keys={REPLAY_KEYS.map((k) => ({ keys: k.key, description: k.description }))} />
      </div>
      <section className="help-guide">
        <h3>What you are looking at</h3>
        <p>
          A <b>session</b> is one agent stream: a live HTTP response or a file. The <b>Timeline</b> lists its envelopes
          (one row per decoded event, in arrival order) with the agent that sent it; <b>Lanes</b> draws one line per
          agent over time. <b>Blocks</b> shows the conversation rebuilt from the envelopes (thinking, text, tool calls
          and results, sub-agents). <b>Diagnostics</b> lists everything odd about the stream — framing, escaping,
          oversize chunks — and charts its chunk sizes. <b>Diff</b> compares two sessions block by block.
        </p>
      </section>
    </Dialog>
  );
}

function KeyTable({ title, keys }: { title: string; keys: readonly { keys: string; description: string }[] }) {
  return (
    <section>
      <h3>{title}</h3>
      <table className="help-table">
        <tbody>
          {keys.map((k) => (
            <tr key={k.keys}>
              <td>
                <kbd>{k.keys}</kbd>
              </td>
              <td>{k.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
