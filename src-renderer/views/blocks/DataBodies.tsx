import { useState } from 'react';
import type { PendingTools } from '../../../src-shared/contract';
import { CodeView } from '../../editor/CodeView';
import { holdBackPartialTag } from '../../../src-shared/inline/holdback';
import type { FrontendAnswer } from '../../model/frontend-answers';
import { isJsonObject } from '../../../src-shared/json/values';
import { errorFrameOf, metaFilesOf, prettyJson } from '../../model/blocks';
import { formatCountOf } from '../../model/format';
import { summaryFacts } from '../../model/summary-facts';
import { prettyInput, messageOf, waitedFor } from '../../model/tools';
import { ClippedText, lineCount } from './ClippedText';
import { BLOCK_IDS } from './testids';
import { stringifyJson } from '../../../src-shared/json/tree';
import { Images, type BodyProps } from './BlockBodies';

/*
 * The bodies of blocks that carry data rather than prose: tool calls and results, JSON
 * payloads with their facts, files, errors and the tools a run awaits.
 */

/** A link to the block at the other end of a tool call ↔ result pair. */
function ToolLink({
  target,
  label,
  onJump,
  frontendAnswer,
}: {
  target: number | undefined;
  label: string;
  onJump: (id: number) => void;
  frontendAnswer?: FrontendAnswer | undefined;
}) {
  if (target === undefined && label === 'result' && frontendAnswer !== undefined)
    return (
      <span
        className="muted tool-link-missing"
        data-testid={BLOCK_IDS.frontendAnswer}
        title={
          frontendAnswer.approval
            ? 'The call waits for the user’s approval: it goes back in the next request.'
            : 'A client-side tool: its result goes back in the next request, and the stream does not repeat it.'
        }
      >
        {frontendAnswer.leg === null
          ? frontendAnswer.approval
            ? 'awaits approval'
            : 'awaits the frontend'
          : `${frontendAnswer.approval ? 'approval' : 'result'} sent in leg ${frontendAnswer.leg}`}
      </span>
    );
  if (target === undefined)
    return <span className="muted tool-link-missing">{label === 'result' ? 'no result yet' : 'no matching call'}</span>;
  return (
    <button
      type="button"
      className="link-button tool-link"
      data-testid={BLOCK_IDS.toolLink}
      onClick={(event) => {
        event.stopPropagation();
        onJump(target);
      }}
    >
      {label === 'result' ? `→ result #${target}` : `← call #${target}`}
    </button>
  );
}

export function ToolCallBody({ detail, summary, onJump, live, frontendAnswer }: BodyProps) {
  const pretty = prettyJson(detail);
  return (
    <>
      <div className="tool-line">
        <span className="muted">arguments</span>
        {detail.parseError && <span className="warn-text">does not parse: {detail.parseError}</span>}
        <span className="spacer" />
        <ToolLink target={summary.linkedBlock} label="result" onJump={onJump} frontendAnswer={frontendAnswer} />
      </div>
      <ClippedText
        text={pretty ?? (live ? holdBackPartialTag(detail.content, live).visible : detail.content)}
        className="json-text"
        testId={BLOCK_IDS.toolArgs}
      />
    </>
  );
}

export function ToolResultBody({ app, detail, summary, onJump }: BodyProps) {
  return (
    <>
      <div className="tool-line">
        <span className="muted">result</span>
        <span className="spacer" />
        <ToolLink target={summary.linkedBlock} label="call" onJump={onJump} />
      </div>
      <ClippedText text={detail.content} testId={BLOCK_IDS.toolResult} />
      {detail.images.length > 0 && <Images app={app} detail={detail} />}
    </>
  );
}

export function JsonBody({ detail }: BodyProps) {
  const [open, setOpen] = useState(false);
  const pretty = prettyJson(detail);
  const parsed: unknown = detail.parsed;
  const keys = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  const facts = summaryFacts(detail.kind, parsed);
  return (
    <div data-testid={BLOCK_IDS.metaJson}>
      <div className="meta-facts">
        {facts.map(([k, v]) => (
          <span key={k} className="kv">
            <span className="kv-k">{k}</span>{' '}
            {/* A long value (a cost or usage object) is cut with an ellipsis: the tooltip has it whole. */}
            <span className="kv-v" title={v}>
              {v}
            </span>
          </span>
        ))}
        {detail.parseError && <span className="warn-text">payload does not parse: {detail.parseError}</span>}
        <span className="spacer" />
        <button
          type="button"
          className="link-button"
          onClick={(event) => {
            event.stopPropagation();
            setOpen((o) => !o);
          }}
        >
          {open ? 'Hide JSON' : `Show JSON${keys.length > 0 ? ` (${formatCountOf(keys.length, 'key')})` : ''}`}
        </button>
      </div>
      {open && (
        <div className="meta-editor" onClick={(event) => event.stopPropagation()}>
          <CodeView
            value={pretty ?? detail.content}
            language={pretty ? 'json' : 'plaintext'}
            height={Math.min(420, 40 + 19 * lineCount(pretty ?? detail.content, 40))}
            ariaLabel={`${detail.kind} payload`}
          />
        </div>
      )}
    </div>
  );
}

export function FilesBody(props: BodyProps) {
  const files = metaFilesOf(props.detail.parsed);
  if (files.length === 0) return <JsonBody {...props} />;
  return (
    <table className="files-table" data-testid={BLOCK_IDS.metaFiles}>
      <thead>
        <tr>
          <th>file</th>
          <th>id</th>
          <th>other fields</th>
        </tr>
      </thead>
      <tbody>
        {files.map((f, i) => (
          <tr key={`${f.id}-${i}`}>
            <td className="mono">{f.name}</td>
            <td className="mono muted">{f.id}</td>
            <td className="muted">
              {Object.entries(f.fields)
                .filter(([k]) => k !== 'file_id' && k !== 'filename')
                .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : stringifyJson(v)}`)
                .join(' · ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ErrorBody({ detail }: BodyProps) {
  const frame = errorFrameOf(detail.parsed);
  if (!frame) {
    return (
      <div className="error-body" data-testid={BLOCK_IDS.errorBlock}>
        <ClippedText text={detail.content} className="error-text" />
      </div>
    );
  }
  return (
    <div className="error-body" data-testid={BLOCK_IDS.errorBlock}>
      <div className="error-head">
        <span className="error-name mono">{frame.error}</span>
        <span className="error-text">{frame.message}</span>
      </div>
      {frame.traceback !== null && <Traceback text={frame.traceback} />}
    </div>
  );
}

function Traceback({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="traceback-wrap">
      <button
        type="button"
        className="link-button small"
        onClick={(event) => {
          event.stopPropagation();
          setOpen((o) => !o);
        }}
      >
        {open ? '▾ Traceback' : '▸ Traceback'}
      </button>
      {open && <ClippedText text={text} className="traceback" />}
    </div>
  );
}

/** What a pause waits for, as the prompt says it: an approval is no frontend tool to run. */
function pauseLine(parsed: unknown, tools: readonly { approvalId?: string | undefined }[]): string {
  if (tools.length > 0) return `The agent paused for ${waitedFor(tools).what}.`;
  return isJsonObject(parsed) && parsed['pause_turn'] === true
    ? 'The model paused its turn (pause_turn): continuing sends its message back as it streamed.'
    : 'The agent paused for no frontend tool.';
}

export function AwaitingBody({ detail, pending }: BodyProps & { pending: PendingTools | null }) {
  const tools = detail.pendingTools ?? [];
  const state = pending && pending.block === detail.id ? pending.answered : null;
  return (
    <div className="awaiting-body" data-testid={BLOCK_IDS.awaitingBlock}>
      <div className="tool-line">
        <span>{pauseLine(detail.parsed, tools)}</span>
        {/* "Above" is the prompt of a live run, or the notice of a file that cannot be answered (it has no prompt). */}
        {state && (
          <span className={`chip chip-small answered-${state}`}>
            {state === 'no' ? 'waiting for an answer (see above)' : state}
          </span>
        )}
      </div>
      {detail.parseError && <div className="warn-text">payload does not parse: {detail.parseError}</div>}
      <ul className="awaiting-tools">
        {tools.map((tool) => {
          const message = messageOf(tool.input);
          return (
            <li key={tool.toolUseId}>
              <span className="mono strong">{tool.name}</span> <span className="mono muted">{tool.toolUseId}</span>
              {tool.approvalId !== undefined && (
                <>
                  {' '}
                  <span className="chip chip-small" title={`approval ${tool.approvalId}`}>
                    waits for its approval
                  </span>
                </>
              )}
              {message && <div className="tool-message">{message}</div>}
              <pre className="block-pre json-text">{prettyInput(tool.input)}</pre>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
