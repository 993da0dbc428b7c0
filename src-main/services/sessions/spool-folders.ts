import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Each run spools its live sessions into a folder of its own, named after its process, and
 * removes it on dispose. A run that ends without disposing (killed, crashed, a test that never
 * closed its worker) leaves its folder behind with the sessions' bytes in it, so each start
 * removes the folders of processes that no longer exist.
 */

const SPOOL_PARENT = join(tmpdir(), 'stream-inspector-spool');

/** The spool recording of a live session in a spool folder (see SessionServiceDeps.spoolDir). */
export function spoolPath(spoolDir: string, sessionId: string): string {
  return join(spoolDir, `${sessionId}.recording`);
}
const RUN_FOLDER = /^(\d+)-[0-9a-f]{8}$/;

export function runSpoolFolder(parent = SPOOL_PARENT): string {
  return join(parent, `${process.pid}-${randomBytes(4).toString('hex')}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the run folders under `parent` whose process has ended; returns their names. */
export async function sweepStaleSpoolFolders(parent = SPOOL_PARENT): Promise<string[]> {
  const names = await readdir(parent).catch(() => []);
  const stale = names.filter((name) => {
    const pid = RUN_FOLDER.exec(name)?.[1];
    return pid !== undefined && !isRunning(Number(pid));
  });
  await Promise.all(
    stale.map((name) => rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined)),
  );
  return stale;
}
