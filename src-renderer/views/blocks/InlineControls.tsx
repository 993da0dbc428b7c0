import { useState } from 'react';
import type { InlineOptionsPayload } from '../../../src-shared/contract';
import {
  DEFAULT_TOOL_TAGS,
  formatToolList,
  INLINE_MODE_TABLE,
  INLINE_MODES,
  parseToolList,
  type InlineMode,
} from '../../../src-shared/inline/types';
import type { AppModel } from '../../model/types';
import { BLOCK_IDS } from './testids';

/** What main uses when a session says nothing (sessions made before the inline stage existed). */
export const DEFAULT_INLINE: InlineOptionsPayload = {
  mode: 'auto',
  tools: DEFAULT_TOOL_TAGS.map((t) => ({ name: t.name, required: [...t.required] })),
};

/**
 * How this session reads protocols inside the model's text (docs/inline.md): the mode, and the
 * known tool tags (`search:query` = the tag search, which requires a query parameter). Main
 * parses the text blocks again and replaces the inline findings.
 */
export function InlineControls({
  app,
  sessionId,
  inline,
}: {
  app: AppModel;
  sessionId: string;
  inline: InlineOptionsPayload;
}) {
  const current = formatToolList(inline.tools);
  const [tools, setTools] = useState(current);
  const [seen, setSeen] = useState(current);
  if (seen !== current) {
    setSeen(current);
    setTools(current);
  }
  const apply = (next: InlineOptionsPayload): void => {
    void app.run('Change the inline mode', () => app.commands(sessionId).setInline(next), sessionId);
  };
  const applyTools = (): void => {
    if (tools.trim() === current) return;
    apply({ mode: inline.mode, tools: parseToolList(tools).map((t) => ({ name: t.name, required: [...t.required] })) });
  };
  return (
    <>
      <label className="toolbar-field" title="How text blocks are read for protocols the model writes inside its text">
        <span className="muted">Inline</span>
        <select
          value={inline.mode}
          data-testid={BLOCK_IDS.inlineMode}
          onChange={(e) => apply({ ...inline, mode: e.target.value as InlineMode })}
        >
          {INLINE_MODES.map((mode) => (
            <option key={mode} value={mode} title={INLINE_MODE_TABLE[mode].title}>
              {mode}
            </option>
          ))}
        </select>
      </label>
      <label
        className="toolbar-field"
        title="Tool tags the model may write, each with its required parameters after ':' (search:query,extract:file_path,query)"
      >
        <span className="muted">Tools</span>
        <input
          className="input inline-tools"
          spellCheck={false}
          value={tools}
          disabled={inline.mode === 'off' || inline.mode === 'sentinel' || inline.mode === 'json'}
          data-testid={BLOCK_IDS.inlineTools}
          onChange={(e) => setTools(e.target.value)}
          onBlur={applyTools}
          onKeyDown={(e) => {
            if (e.key === 'Enter') applyTools();
          }}
        />
      </label>
    </>
  );
}
