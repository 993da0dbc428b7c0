import { useMemo, useState, type RefObject } from 'react';
import {
  draftWarning,
  isQuickAnswer,
  prettyInput,
  quickAnswers,
  type QuickAnswer,
  type ToolDraft,
} from '../../model/tools';
import { TOOL_IDS } from './testids';

/**
 * One pending tool's answer: its input, quick answers, text or JSON, is_error, and what is
 * wrong with the draft. A call waiting for its approval is approved or denied instead, with an
 * optional reason.
 */
export function ToolEditor({
  draft,
  problem,
  onChange,
  onQuickAnswer,
  sendsAtOnce,
  inputRef,
}: {
  draft: ToolDraft;
  problem: string | null;
  onChange: (patch: Partial<ToolDraft>) => void;
  onQuickAnswer: (answer: QuickAnswer) => void;
  /** The run waits for this tool alone: a quick answer sends. */
  sendsAtOnce: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null> | undefined;
}) {
  const [showInput, setShowInput] = useState(draft.message === null);
  const warning = draftWarning(draft);
  const input = useMemo(() => prettyInput(draft.input), [draft.input]);
  const approval = draft.approvalId !== null;
  // An approval not chosen yet, or a screenshot not given yet, is what to do next, not a mistake: said as a hint.
  const unchosen = approval ? draft.approved === null : draft.answerHint !== null && draft.content.trim() === '';
  return (
    <div className="tool-editor" data-testid={TOOL_IDS.tool} data-tool-use-id={draft.toolUseId}>
      <div className="tool-editor-head">
        <span className="mono strong">{draft.name}</span>
        <span className="mono muted small">{draft.toolUseId}</span>
        {approval && (
          <span className="chip chip-small" data-testid={TOOL_IDS.approval} title={`approval ${draft.approvalId}`}>
            needs approval
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="link-button small" onClick={() => setShowInput((s) => !s)}>
          {showInput ? 'Hide input' : 'Show input'}
        </button>
      </div>
      {draft.message && (
        <div className="tool-ask" data-testid={TOOL_IDS.toolMessage}>
          {draft.message}
        </div>
      )}
      {showInput && (
        <pre className="block-pre json-text tool-input" data-testid={TOOL_IDS.toolInput}>
          {input}
        </pre>
      )}
      <div className="tool-answer">
        <div className="tool-answer-controls">
          {quickAnswers(draft).map((q) => (
            <button
              key={q.id}
              type="button"
              className={`button button-small quick ${isQuickAnswer(draft, q) ? 'quick-on' : ''}`}
              data-testid={`${TOOL_IDS.quickAnswer}-${q.id}`}
              aria-pressed={approval ? isQuickAnswer(draft, q) : undefined}
              title={quickTitle(q, sendsAtOnce)}
              onClick={() => onQuickAnswer(q)}
            >
              {q.label}
            </button>
          ))}
          {/* A call that takes one form of answer (a screenshot) has no JSON or error to send. */}
          {!approval && draft.answerHint === null && <ResultOptions draft={draft} onChange={onChange} />}
        </div>
        <textarea
          ref={inputRef}
          className={`input mono tool-result-input ${problem && !unchosen ? 'input-invalid' : ''}`}
          rows={draft.mode === 'json' && !approval ? 4 : 2}
          placeholder={
            approval
              ? 'Reason (optional), sent with the approval'
              : draft.answerHint !== null
                ? `Answered with ${draft.answerHint}`
                : draft.mode === 'json'
                  ? '{"answer": …}  (sent as this JSON text)'
                  : 'Result text sent as content'
          }
          value={draft.content}
          onChange={(e) => onChange({ content: e.target.value })}
          spellCheck={draft.mode === 'text' || approval}
          data-testid={TOOL_IDS.resultText}
        />
        {problem && !unchosen ? (
          <div className="field-error">{problem}</div>
        ) : unchosen ? (
          <div className="muted small">{problem}</div>
        ) : (
          warning && <div className="muted small">{warning}</div>
        )}
      </div>
    </div>
  );
}

function quickTitle(q: QuickAnswer, sendsAtOnce: boolean): string {
  const what = q.approved === undefined ? `Answer “${q.content}”` : q.approved ? 'Approve the call' : 'Deny the call';
  return sendsAtOnce ? `${what} and send` : what;
}

/** A result's form: text or JSON, and whether it is an error. */
function ResultOptions({ draft, onChange }: { draft: ToolDraft; onChange: (patch: Partial<ToolDraft>) => void }) {
  return (
    <>
      <span className="segmented">
        <button
          type="button"
          className={draft.mode === 'text' ? 'segmented-active' : ''}
          onClick={() => onChange({ mode: 'text' })}
          data-testid={TOOL_IDS.modeText}
        >
          Text
        </button>
        <button
          type="button"
          className={draft.mode === 'json' ? 'segmented-active' : ''}
          onClick={() => onChange({ mode: 'json' })}
          data-testid={TOOL_IDS.modeJson}
        >
          JSON
        </button>
      </span>
      <label className="toolbar-check" title="Send is_error: true (the tool failed)">
        <input
          type="checkbox"
          checked={draft.isError}
          onChange={(e) => onChange({ isError: e.target.checked })}
          data-testid={TOOL_IDS.isError}
        />
        is_error
      </label>
    </>
  );
}
