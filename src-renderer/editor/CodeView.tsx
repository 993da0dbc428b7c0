import { useEffect, useRef, useState } from 'react';
import { useStore } from '../app/hooks';
import type { ReadableStore, ThemeName } from '../model/types';
import type * as MonacoApi from './monaco';
import type { CodeEditor, DiffCodeEditor, EditorLanguage } from './monaco';

export type { EditorLanguage };

type MonacoModule = typeof MonacoApi;

let loading: Promise<MonacoModule> | null = null;

/** Loads Monaco once, on first use. */
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monaco');
  return loading;
}

/**
 * The theme the editors follow. Set once by the composition root (`bindEditorTheme`), so
 * callers do not pass it around.
 */
let themeStore: ReadableStore<ThemeName> = { getSnapshot: () => 'dark', subscribe: () => () => {} };

export function bindEditorTheme(store: ReadableStore<ThemeName>): void {
  themeStore = store;
}

function useEditorTheme(): ThemeName {
  return useStore(themeStore);
}

export interface CodeViewProps {
  readonly value: string;
  readonly language: EditorLanguage;
  /** Default true. */
  readonly readOnly?: boolean;
  /** Editable mode: called with the whole text on every edit. */
  readonly onChange?: (value: string) => void;
  /** CSS height; default fills the parent (give the parent a height). */
  readonly height?: number | string;
  readonly ariaLabel?: string;
  readonly testId?: string;
}

/**
 * Monaco as a React component, loaded lazily. Until Monaco is ready (and if it fails to load)
 * the text is shown in a plain `<pre>` / `<textarea>`, so content is never hidden behind the editor.
 */
export function CodeView({
  value,
  language,
  readOnly = true,
  onChange,
  height = '100%',
  ariaLabel = 'Code',
  testId,
}: CodeViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditor | null>(null);
  const latest = useRef({ value, onChange });
  const theme = useEditorTheme();
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    latest.current = { value, onChange };
  });

  useEffect(() => {
    let cancelled = false;
    let created: CodeEditor | null = null;
    loadMonaco().then(
      (monaco) => {
        if (cancelled || !container.current) return;
        created = monaco.createCodeEditor(container.current, {
          value: latest.current.value,
          language,
          readOnly,
          theme: themeStore.getSnapshot(),
          ariaLabel,
        });
        created.onDidChangeModelContent(() => {
          const text = created?.getValue() ?? '';
          if (text !== latest.current.value) latest.current.onChange?.(text);
        });
        editor.current = created;
        setReady(true);
      },
      (error: unknown) => {
        if (!cancelled) setFailed(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      cancelled = true;
      editor.current = null;
      // Disposing an editor takes tens of milliseconds: in a task of its own, so a view
      // switch (Connect → Timeline on opening a file) does not become one long task.
      const disposed = created;
      if (disposed) window.setTimeout(() => disposed.dispose(), 0);
    };
    // The editor is created once; value, language and options are pushed by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const current = editor.current;
    if (current && current.getValue() !== value) current.setValue(value);
  }, [value, ready]);

  useEffect(() => {
    const current = editor.current;
    if (!current) return;
    void loadMonaco().then((monaco) => monaco.setLanguage(current, language));
  }, [language, ready]);

  useEffect(() => {
    editor.current?.updateOptions({ readOnly, domReadOnly: readOnly });
  }, [readOnly, ready]);

  useEffect(() => {
    if (ready) void loadMonaco().then((monaco) => monaco.setTheme(theme));
  }, [theme, ready]);

  return (
    <div className="code-view" style={{ height }} data-testid={testId} data-ready={ready ? 'true' : 'false'}>
      {!ready &&
        (readOnly || !onChange ? (
          <pre className="code-view-fallback">{value}</pre>
        ) : (
          <textarea
            className="code-view-fallback"
            value={value}
            aria-label={ariaLabel}
            onChange={(event) => onChange(event.target.value)}
          />
        ))}
      {failed && <div className="code-view-error">Editor unavailable: {failed}</div>}
      <div ref={container} className="code-view-editor" style={ready ? undefined : { display: 'none' }} />
    </div>
  );
}

export interface DiffEditorProps {
  readonly original: string;
  readonly modified: string;
  readonly language: EditorLanguage;
  /** Default true; false shows an inline diff. */
  readonly sideBySide?: boolean;
  readonly height?: number | string;
  readonly testId?: string;
}

/** Monaco's read-only diff editor, loaded lazily (plain two-column text until it is ready). */
export function DiffEditor({
  original,
  modified,
  language,
  sideBySide = true,
  height = '100%',
  testId,
}: DiffEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<DiffCodeEditor | null>(null);
  const initial = useRef({ original, modified, language, sideBySide });
  const theme = useEditorTheme();
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let created: DiffCodeEditor | null = null;
    let dispose: ((e: DiffCodeEditor) => void) | null = null;
    void loadMonaco().then((monaco) => {
      if (cancelled || !container.current) return;
      const start = initial.current;
      created = monaco.createDiffCodeEditor(container.current, { ...start, theme: themeStore.getSnapshot() });
      dispose = monaco.disposeDiffEditor;
      editor.current = created;
      setReady(true);
    });
    return () => {
      cancelled = true;
      if (created && dispose) dispose(created);
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    const current = editor.current;
    if (!current) return;
    const model = current.getModel();
    if (
      model &&
      model.original.getValue() === original &&
      model.modified.getValue() === modified &&
      model.original.getLanguageId() === language
    )
      return;
    void loadMonaco().then((monaco) => monaco.updateDiffModels(current, original, modified, language));
  }, [original, modified, language, ready]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: sideBySide });
  }, [sideBySide, ready]);

  useEffect(() => {
    if (ready) void loadMonaco().then((monaco) => monaco.setTheme(theme));
  }, [theme, ready]);

  return (
    <div className="code-view" style={{ height }} data-testid={testId} data-ready={ready ? 'true' : 'false'}>
      {!ready && (
        <div className="diff-fallback">
          <pre className="code-view-fallback">{original}</pre>
          <pre className="code-view-fallback">{modified}</pre>
        </div>
      )}
      <div ref={container} className="code-view-editor" style={ready ? undefined : { display: 'none' }} />
    </div>
  );
}
