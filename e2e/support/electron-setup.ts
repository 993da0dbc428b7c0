import { execFileSync } from 'node:child_process';
import { ELECTRON_SKIP_REASON, electronBinary, ROOT } from './electron-app';

/**
 * Before the Electron suites: build the app where it can run; where it cannot, say why once
 * (the list reporter shows skipped tests without their reason).
 */
export default function setup(): void {
  if (!electronBinary.found) {
    console.warn(ELECTRON_SKIP_REASON);
    return;
  }
  execFileSync(process.execPath, [`${ROOT}/node_modules/electron-vite/bin/electron-vite.js`, 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
