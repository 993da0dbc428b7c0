import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether the Electron binary is installed. `npm install` downloads it into
 * node_modules/electron/dist and names it in path.txt; with ELECTRON_SKIP_BINARY_DOWNLOAD=1
 * (this project's build machines) neither exists, and the app falls back to the browser host.
 */
export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

export function findElectronBinary(projectRoot: string): ElectronBinary {
  const pkg = join(projectRoot, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json')))
    return { found: false, reason: 'the electron package is not installed (run npm install)' };
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile) && !override) {
    return {
      found: false,
      reason:
        'the Electron binary was not downloaded (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or offline); run `node node_modules/electron/install.js` (with network access) to download it',
    };
  }
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const path = override ? join(override, executable) : join(pkg, 'dist', executable);
  return existsSync(path)
    ? { found: true, path }
    : { found: false, reason: `the Electron binary is missing at ${path}` };
}
