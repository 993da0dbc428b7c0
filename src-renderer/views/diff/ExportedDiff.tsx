import { useRef } from 'react';
import { readDiffExport, type DiffExport } from '../../../src-shared/diff/export';
import { diffTranscript } from '../../../src-shared/diff/transcript';
import type { AppModel } from '../../model/types';
import { DiffResult } from './DiffResult';
import { DIFF_IDS } from './testids';

/**
 * A diff read back from its export ("Export JSON"): shown as it was computed, read-only. The
 * two sessions it compared need not be open; their blocks are named, not opened.
 */
export interface ExportedDiff extends DiffExport {
  fileName: string;
  transcript: { left: string; right: string };
}

/** Reads an exported diff from a file the user chose: the diff, or the reason it cannot be shown. */
export async function readExportedDiff(
  file: File,
): Promise<{ ok: true; diff: ExportedDiff } | { ok: false; error: string }> {
  try {
    const read = readDiffExport(await file.text());
    return { ok: true, diff: { ...read, fileName: file.name, transcript: diffTranscript(read.diff) } };
  } catch (error) {
    // DiffExportError says what is wrong and where; a file that cannot be read says why.
    return { ok: false, error: `${file.name}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** When it was exported, in the user's local time ("30 Nov 2026, 20:50"); the recorded text when it is no date. */
function exportedWhen(exportedAt: string): string {
  const date = new Date(exportedAt);
  if (Number.isNaN(date.getTime())) return exportedAt;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The button that opens an exported diff, with its file input. */
export function OpenExportedDiffButton({ onFile }: { onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="button button-small"
        title="Show a diff saved with Export JSON"
        data-testid={DIFF_IDS.openExport}
        onClick={() => input.current?.click()}
      >
        Open exported diff…
      </button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".json,application/json"
        data-testid={DIFF_IDS.openExportInput}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = '';
        }}
      />
    </>
  );
}

/** The exported diff with a line saying what it is, and a way back to the open sessions. */
export function ExportedDiffView({
  app,
  exported,
  selected,
  onSelect,
  onClose,
}: {
  app: AppModel;
  exported: ExportedDiff;
  selected: number | null;
  onSelect: (row: number) => void;
  onClose: () => void;
}) {
  const { left, right } = exported.sessions;
  return (
    <>
      <div className="toolbar diff-toolbar diff-exported" data-testid={DIFF_IDS.exported}>
        <span title={`${exported.fileName}, exported ${exported.exportedAt}`}>
          <strong>Exported diff</strong> {left.title} against {right.title}{' '}
          <span className="muted">
            · {exportedWhen(exported.exportedAt)} · read-only: its sessions need not be open
          </span>
        </span>
        <span className="spacer" />
        <button type="button" className="button button-small" data-testid={DIFF_IDS.closeExport} onClick={onClose}>
          Back to the open sessions
        </button>
      </div>
      <DiffResult
        app={app}
        diff={exported.diff}
        transcript={exported.transcript}
        left={left}
        right={right}
        selected={selected}
        onSelect={onSelect}
        stale={false}
        sessionsOpen={false}
      />
    </>
  );
}
