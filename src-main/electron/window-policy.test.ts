import { describe, expect, it } from 'vitest';
import { judgeNavigation, mainWindowOptions, SECURE_WEB_PREFERENCES } from './window-policy';

const isAppUrl = (url: string): boolean => url.startsWith('app://inspector/');

describe('the main window', () => {
  it('isolates the page: context isolation and sandbox on, no Node anywhere, no webviews', () => {
    const { webPreferences } = mainWindowOptions('/app/preload.cjs', { width: 1200, height: 800 });
    expect(webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(webPreferences).toEqual({ ...SECURE_WEB_PREFERENCES, preload: '/app/preload.cjs' });
  });

  it.each([
    ['app://inspector/index.html', 'allow'],
    ['https://docs.example/page', 'ask-external'],
    ['http://127.0.0.1:8787/', 'ask-external'],
    ['file:///etc/passwd', 'block'],
    ['FILE:///home/me/.ssh/id_rsa', 'block'],
    ['app://elsewhere/index.html', 'block'],
    ['data:text/html,<script>alert(1)</script>', 'block'],
    ['javascript:alert(1)', 'block'],
    ['about:blank', 'block'],
  ] as const)('navigating to %s: %s', (url, verdict) => {
    expect(judgeNavigation(url, isAppUrl)).toBe(verdict);
  });
});
