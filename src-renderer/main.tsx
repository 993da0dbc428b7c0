import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browserDownload, browserScheduler, browserStorage, shouldAutoConnect, systemTheme } from './app/browser';
import { createApp } from './app/composition';
import { Shell } from './app/Shell';
import { connectBridge } from './bridge/client';
import { bindEditorTheme, loadMonaco } from './editor/CodeView';
import './styles.css';

const bridge = connectBridge();
const storage = browserStorage();
const app = createApp({
  service: bridge.service,
  bridgeKind: bridge.kind,
  bridgeStatus: bridge.status,
  scheduler: browserScheduler(),
  systemTheme: systemTheme(),
  storage,
  now: () => Date.now(),
  autoConnectDemo: shouldAutoConnect(storage),
  download: browserDownload,
});
bindEditorTheme(app.theme);
// Before the first paint, so a dark theme never flashes light; on a change, before React
// renders again, since charts and canvases read the theme's colours from the root while they
// render (app/theme-colours.ts): an effect would set it only after they read the old ones.
const applyTheme = (): void => {
  document.documentElement.dataset['theme'] = app.theme.getSnapshot();
};
applyTheme();
app.theme.subscribe(applyTheme);
app.start();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Shell app={app} pathForFile={bridge.pathForFile} />
    </StrictMode>,
  );
}

// Monaco's first evaluation is one task of a few hundred milliseconds. Run it while the app
// is idle after starting, not when the user first opens an envelope in the middle of a fast
// stream.
requestIdleCallback(() => void loadMonaco(), { timeout: 2000 });
