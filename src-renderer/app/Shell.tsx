import { ThemeSwitch } from './ThemeSwitch';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { EmptyState } from '../components/EmptyState';
import { ErrorList } from '../components/ErrorList';
import { ViewErrorBoundary } from '../components/ViewErrorBoundary';
import { formToRequest } from '../model/connect-form';
import { TEST_IDS } from '../testids';
import { ConnectView } from '../views/connect/ConnectView';
import { TimelineView } from '../views/timeline/TimelineView';
import { FrontendToolsPrompt } from '../views/tools/FrontendToolsPrompt';
import type { SessionSummary } from '../../src-shared/contract';
import type { RendererApp } from '../model/types';
import { fileForUpload, isEditableTarget } from './files';
import { HelpOverlay } from './HelpOverlay';
import { DemoIntroLine } from './DemoIntroLine';
import { EnvironmentsDialog } from '../views/requests/EnvironmentsDialog';
import { HarEntryPicker } from './HarEntryPicker';
import { useActiveSession, useChoosingHarEntries, useSessionData, useStore, useStoreValue } from './hooks';
import { SessionHeader } from './SessionHeader';
import { SessionSidebar } from './SessionSidebar';
import { matchShortcut } from './shortcuts';
import type { ViewId } from '../model/types';
import { uiCommands } from './ui-commands';
// The diagnostics view's stand-in while it loads: light, without the chart library.
import { DiagnosticsLoading } from '../views/diagnostics/ChartsPlaceholder';

// The heavier views (markdown, charts, diff) load on first use, so the first paint does not wait for them.
const BlocksView = lazy(() => import('../views/blocks/BlocksView').then((m) => ({ default: m.BlocksView })));
const DiagnosticsView = lazy(() =>
  import('../views/diagnostics/DiagnosticsView').then((m) => ({ default: m.DiagnosticsView })),
);
const DiffView = lazy(() => import('../views/diff/DiffView').then((m) => ({ default: m.DiffView })));

const TABS: readonly { id: ViewId; label: string; key: string }[] = [
  { id: 'connect', label: 'Connect', key: '1' },
  { id: 'timeline', label: 'Timeline', key: '2' },
  { id: 'blocks', label: 'Blocks', key: '3' },
  { id: 'diagnostics', label: 'Diagnostics', key: '4' },
  { id: 'diff', label: 'Diff', key: '5' },
];

export interface ShellProps {
  readonly app: RendererApp;
  /** The real path of a dropped file (Electron), or null (browser: upload it). */
  readonly pathForFile: (file: File) => Promise<string | null>;
}

/** The frame of the app: navigation, sessions, the active view, errors and the help overlay. */
export function Shell({ app, pathForFile }: ShellProps) {
  const view = useStore(app.view);
  const theme = useStore(app.theme);
  const host = useStore(app.host);
  const helpOpen = useStore(app.helpOpen);
  const environmentsOpen = useStore(app.environmentsOpen);
  // Only the active id here: what streams in re-renders the parts that show it, not the shell.
  const activeId = useStoreValue(app.sessions, (sessions) => sessions.activeId);
  const hasSession = activeId !== null;
  const choosing = useChoosingHarEntries(app, activeId);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const openFiles = useCallback(
    async (files: FileList | readonly File[]) => {
      for (const file of Array.from(files)) {
        const path = await pathForFile(file);
        if (path) {
          await app.openPath(path);
          continue;
        }
        try {
          await app.openUpload(fileForUpload(file));
        } catch (error) {
          app.reportError(`Open ${file.name}`, error);
        }
      }
    },
    [app, pathForFile],
  );

  const openFile = useCallback(() => {
    if (host.info?.capabilities.fileDialogs) void app.showOpenDialog();
    else fileInput.current?.click();
  }, [app, host.info]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const shortcut = matchShortcut(event, isEditableTarget(event.target));
      if (!shortcut) return;
      const sessions = app.sessions.getSnapshot();
      switch (shortcut) {
        case 'help':
          app.helpOpen.update((open) => !open);
          break;
        case 'escape':
          if (app.helpOpen.getSnapshot()) app.helpOpen.set(false);
          else if (isEditableTarget(event.target)) return;
          else if (app.selection.getSnapshot().row !== null) app.clearSelection();
          else return;
          break;
        case 'view-connect':
        case 'view-timeline':
        case 'view-blocks':
        case 'view-diagnostics':
        case 'view-diff':
          app.navigate(shortcut.slice('view-'.length) as ViewId);
          break;
        case 'open-file':
          openFile();
          break;
        case 'connect': {
          const result = formToRequest(app.connectForm.getSnapshot());
          if (result.ok) void app.connect(result.request);
          else {
            app.navigate('connect');
            return;
          }
          break;
        }
        case 'stop': {
          const active = sessions.list.find((s) => s.id === sessions.activeId);
          if (active && (active.state === 'streaming' || active.state === 'connecting')) void app.stop(active.id);
          else return;
          break;
        }
        case 'focus-filter':
          app.navigate('timeline');
          uiCommands.fire('focus-filter');
          break;
        case 'follow':
          app.navigate('timeline');
          uiCommands.fire('follow');
          break;
        case 'toggle-lanes':
          app.prefs.update((p) => ({ ...p, timelineMode: p.timelineMode === 'table' ? 'lanes' : 'table' }));
          break;
        case 'toggle-detail':
          app.prefs.update((p) => ({ ...p, detailOpen: !p.detailOpen }));
          break;
        case 'previous-session':
        case 'next-session': {
          const index = sessions.list.findIndex((s) => s.id === sessions.activeId);
          const next = sessions.list[index + (shortcut === 'next-session' ? 1 : -1)];
          if (next) app.setActiveSession(next.id);
          break;
        }
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [app, openFile]);

  // dragenter/dragleave fire for every child crossed: count them to know when the file left the window.
  const dragDepth = useRef(0);
  const onDragEnter = (event: DragEvent): void => {
    if (!event.dataTransfer.types.includes('Files')) return;
    dragDepth.current++;
    setDragging(true);
  };
  const onDragLeave = (): void => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDragOver = (event: DragEvent): void => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    if (event.dataTransfer.files.length > 0) void openFiles(event.dataTransfer.files);
  };

  return (
    <div
      className="shell"
      data-testid={TEST_IDS.app}
      data-theme={theme}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <header className="topbar">
        <div className="brand" title="Agent Stream Inspector">
          <img className="brand-mark" src="./favicon.png" alt="" width={18} height={18} /> Agent Stream Inspector
        </div>
        <NavTabs app={app} view={view} />
        <div className="topbar-right">
          <span
            className={`bridge-dot ${host.connected ? 'bridge-up' : 'bridge-down'}`}
            title={
              host.connected
                ? `Connected to the inspector (${app.bridgeKind === 'electron' ? 'desktop' : 'browser host'})`
                : (host.disconnectReason ?? 'Connecting…')
            }
          />
          <ThemeSwitch app={app} />
          <button
            type="button"
            className="icon-button help-button"
            data-testid={TEST_IDS.helpButton}
            title="Keyboard shortcuts (?)"
            onClick={() => app.helpOpen.update((o) => !o)}
          >
            ?
          </button>
        </div>
      </header>
      {!host.connected && host.disconnectReason && (
        <div className="bridge-banner" data-testid={TEST_IDS.bridgeBanner} role="alert">
          {host.disconnectReason}
        </div>
      )}
      <div className="body">
        <SessionSidebar app={app} onOpenFile={openFile} />
        <main className="main" data-testid={TEST_IDS.viewRoot} data-view={view}>
          {view !== 'connect' && view !== 'diff' && activeId && <ActiveSessionHeader app={app} sessionId={activeId} />}
          {view !== 'connect' && view !== 'diff' && hasSession && <FrontendToolsPrompt app={app} />}
          <ErrorList app={app} />
          {(view === 'timeline' || view === 'blocks') && activeId && (
            <DemoIntroLine app={app} sessionId={activeId} view={view} />
          )}
          <div className="view-body">
            {choosing && activeId && view !== 'connect' && view !== 'diff' ? (
              <ActiveHarPicker app={app} sessionId={activeId} />
            ) : (
              <ViewErrorBoundary view={view}>
                <Suspense
                  fallback={
                    // The diagnostics view's charts take their room at once, not after its code loaded.
                    view === 'diagnostics' && hasSession ? (
                      <DiagnosticsLoading />
                    ) : (
                      <div className="view-loading">Loading…</div>
                    )
                  }
                >
                  {view === 'connect' && <ConnectView app={app} onOpenFile={openFile} />}
                  {view === 'timeline' &&
                    (activeId ? (
                      <ActiveTimeline app={app} sessionId={activeId} />
                    ) : (
                      <NoSession app={app} onOpenFile={openFile} />
                    ))}
                  {view === 'blocks' &&
                    (hasSession ? <BlocksView app={app} /> : <NoSession app={app} onOpenFile={openFile} />)}
                  {view === 'diagnostics' &&
                    (hasSession ? <DiagnosticsView app={app} /> : <NoSession app={app} onOpenFile={openFile} />)}
                  {view === 'diff' && <DiffView app={app} />}
                </Suspense>
              </ViewErrorBoundary>
            )}
          </div>
        </main>
      </div>
      <input
        ref={fileInput}
        type="file"
        hidden
        data-testid={TEST_IDS.fileInput}
        multiple
        onChange={(event) => {
          const files = event.target.files;
          if (files && files.length > 0) void openFiles([...files]);
          event.target.value = '';
        }}
      />
      {dragging && (
        <div className="drop-overlay" data-testid={TEST_IDS.dropZone}>
          <div className="drop-overlay-box">
            Drop to open: recordings, SSE captures (curl -N output), NDJSON/JSON envelopes, HAR files
          </div>
        </div>
      )}
      {helpOpen && <HelpOverlay onClose={() => app.helpOpen.set(false)} />}
      {environmentsOpen && <EnvironmentsDialog app={app} onClose={() => app.environmentsOpen.set(false)} />}
    </div>
  );
}

function NavTabs({ app, view }: { app: RendererApp; view: ViewId }) {
  const session = useActiveSession(app);
  const counts: Partial<Record<ViewId, string>> = session
    ? {
        timeline: session.total > 0 ? compact(session.total) : '',
        blocks: session.summary.blocks ? compact(session.summary.blocks) : '',
        diagnostics: findingCount(session.summary) > 0 ? compact(findingCount(session.summary)) : '',
      }
    : {};
  const errors = session !== null && session.summary.diagnostics.error > 0;
  return (
    <nav className="tabs" data-testid={TEST_IDS.nav} role="tablist">
      {TABS.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={view === tab.id}
          className={`tab ${view === tab.id ? 'tab-active' : ''}`}
          data-testid={`${TEST_IDS.nav}-${tab.id}`}
          title={`${tab.label} (${tab.key})`}
          onClick={() => app.navigate(tab.id)}
        >
          {tab.label}
          {counts[tab.id] ? (
            <span className={`tab-count ${tab.id === 'diagnostics' && errors ? 'tab-count-error' : ''}`}>
              {counts[tab.id]}
            </span>
          ) : null}
        </button>
      ))}
    </nav>
  );
}

function ActiveSessionHeader({ app, sessionId }: { app: RendererApp; sessionId: string }) {
  const session = useSessionData(app, sessionId);
  return session ? <SessionHeader app={app} session={session} /> : null;
}

function ActiveHarPicker({ app, sessionId }: { app: RendererApp; sessionId: string }) {
  const session = useSessionData(app, sessionId);
  return session ? <HarEntryPicker app={app} session={session} /> : null;
}

function ActiveTimeline({ app, sessionId }: { app: RendererApp; sessionId: string }) {
  const session = useSessionData(app, sessionId);
  return session ? <TimelineView app={app} session={session} /> : null;
}

function NoSession({ app, onOpenFile }: { app: RendererApp; onOpenFile: () => void }) {
  const host = useStore(app.host);
  return (
    <EmptyState
      title="No session open"
      testId={TEST_IDS.timelineEmpty}
      actions={
        <>
          <button type="button" className="button button-primary" onClick={() => app.navigate('connect')}>
            {host.demo ? 'Connect to the demo agent…' : 'Connect to a stream…'}
          </button>
          <button type="button" className="button" onClick={onOpenFile}>
            Open a file…
          </button>
        </>
      }
    >
      A session is one stream: a live connection to an agent endpoint, or a recording you open. Start one from{' '}
      <b>Connect</b> (the built-in demo agent is ready to go), open a file (Ctrl+O), or drop one anywhere on this
      window.
    </EmptyState>
  );
}

function compact(n: number): string {
  if (n < 10_000) return String(n);
  if (n < 1_000_000) return `${Math.floor(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function findingCount(summary: SessionSummary): number {
  return summary.diagnostics.error + summary.diagnostics.warning + summary.diagnostics.info;
}
