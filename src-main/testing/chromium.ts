/**
 * How tests and benchmarks start a browser: Debian's chromium (CHROMIUM_PATH overrides),
 * never one downloaded by a test tool, with the flags this machine's closed network needs
 * (no background connections, no component updates, no sync).
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
