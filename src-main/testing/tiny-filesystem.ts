import { execFileSync } from 'node:child_process';

/**
 * A real filesystem of `kb` KiB mounted at `path` (tmpfs: Linux, as root), so a test meets a
 * full disk as the program would; null where none can be mounted.
 */
export function tinyFilesystem(path: string, kb: number): { unmount(): void } | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', path], { stdio: 'ignore' });
    return { unmount: () => execFileSync('umount', ['-l', path], { stdio: 'ignore' }) };
  } catch {
    return null;
  }
}
