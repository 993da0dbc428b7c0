import { execFileSync } from 'node:child_process';

/** A real tmpfs of `kb` KiB at `path` (root, Linux); null where mounting is not allowed. For tests of a full disk. */
export function tinyFilesystem(path: string, kb: number): { unmount(): void } | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', path], { stdio: 'ignore' });
    return { unmount: () => execFileSync('umount', ['-l', path], { stdio: 'ignore' }) };
  } catch {
    return null;
  }
}
