import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { rendererCspPlugin } from './src-main/web/csp';

/**
 * Three builds with explicit entries (this project's folders are not electron-vite's
 * defaults): main → out/main/index.js (ESM, like package.json "main") and its session
 * worker → out/main/session-worker.js, the preload →
 * out/preload/preload.cjs (one CommonJS file with everything inlined, as `sandbox: true`
 * requires), and the renderer → out/renderer (relative asset URLs, so the browser host can
 * serve it under its per-run token path; the favicon generated from resources/icons is copied
 * in as is).
 */
const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      rollupOptions: {
        input: {
          index: resolve(root, 'src-main/electron/main.ts'),
          // The session service's worker thread (see src-main/services/sessions/worker).
          'session-worker': resolve(root, 'src-main/services/sessions/worker/session-worker.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // Sandboxed preloads cannot require anything but electron: bundle every import.
      externalizeDeps: false,
      rollupOptions: {
        input: { preload: resolve(root, 'src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    base: './',
    publicDir: resolve(root, 'resources/icons/favicon'),
    // index.html's meta CSP is written from the same source as the header CSP (src-main/web/csp.ts).
    plugins: [react(), rendererCspPlugin()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
