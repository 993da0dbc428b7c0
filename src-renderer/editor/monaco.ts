/**
 * The one module that imports Monaco. It is loaded lazily (`import('./monaco')` from
 * `CodeView.tsx`), so the first paint does not wait for the editor; everything else uses
 * `import type`. Monaco and its workers are bundled by Vite (`?worker`): no CDN, the app works
 * offline and under a CSP without remote script sources.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/xml/register';
import 'monaco-editor/languages/definitions/markdown/register';
import 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';

import type { ThemeName } from '../model/types';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

export type EditorLanguage = 'json' | 'xml' | 'markdown' | 'plaintext';

export type CodeEditor = monaco.editor.IStandaloneCodeEditor;
export type DiffCodeEditor = monaco.editor.IStandaloneDiffEditor;

const COMMON_OPTIONS: monaco.editor.IEditorOptions & monaco.editor.IGlobalEditorOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
  lineNumbersMinChars: 3,
  renderLineHighlight: 'none',
  wordWrap: 'on',
  tabSize: 2,
  fixedOverflowWidgets: true,
  overviewRulerLanes: 0,
  overviewRulerBorder: false,
  hideCursorInOverviewRuler: true,
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10, alwaysConsumeMouseWheel: false },
  // Stream content is untrusted: no clickable links opening anything.
  links: false,
};

export function themeId(theme: ThemeName): string {
  return theme === 'dark' ? 'vs-dark' : 'vs';
}

export function setTheme(theme: ThemeName): void {
  monaco.editor.setTheme(themeId(theme));
}

export function createCodeEditor(
  container: HTMLElement,
  options: { value: string; language: EditorLanguage; readOnly: boolean; theme: ThemeName; ariaLabel: string },
): CodeEditor {
  return monaco.editor.create(container, {
    ...COMMON_OPTIONS,
    value: options.value,
    language: options.language,
    readOnly: options.readOnly,
    domReadOnly: options.readOnly,
    theme: themeId(options.theme),
    ariaLabel: options.ariaLabel,
  });
}

export function setLanguage(editor: CodeEditor, language: EditorLanguage): void {
  const model = editor.getModel();
  if (model) monaco.editor.setModelLanguage(model, language);
}

export function createDiffCodeEditor(
  container: HTMLElement,
  options: { original: string; modified: string; language: EditorLanguage; theme: ThemeName; sideBySide: boolean },
): DiffCodeEditor {
  const editor = monaco.editor.createDiffEditor(container, {
    ...COMMON_OPTIONS,
    readOnly: true,
    originalEditable: false,
    renderSideBySide: options.sideBySide,
    theme: themeId(options.theme),
  });
  editor.setModel({
    original: monaco.editor.createModel(options.original, options.language),
    modified: monaco.editor.createModel(options.modified, options.language),
  });
  return editor;
}

export function updateDiffModels(
  editor: DiffCodeEditor,
  original: string,
  modified: string,
  language: EditorLanguage,
): void {
  const previous = editor.getModel();
  editor.setModel({
    original: monaco.editor.createModel(original, language),
    modified: monaco.editor.createModel(modified, language),
  });
  previous?.original.dispose();
  previous?.modified.dispose();
}

export function disposeDiffEditor(editor: DiffCodeEditor): void {
  const model = editor.getModel();
  editor.dispose();
  model?.original.dispose();
  model?.modified.dispose();
}
