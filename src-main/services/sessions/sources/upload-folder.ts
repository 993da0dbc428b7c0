import { mkdir, mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where the browser host keeps the bytes of uploaded files while their sessions are open
 * (docs/security.md, "Files"): a private folder made for this run (`0700`, a fresh random name,
 * so no other user can list, read or plant files in it), each file readable by the user only
 * (`0600`). A file is removed when its session closes, the folder when the service is disposed
 * (the host's exit).
 */
export interface UploadFolder {
  /** Creates an upload's file, empty, under a random name that keeps the upload's own name readable. */
  create(name: string): Promise<{ path: string; handle: FileHandle }>;
  remove(path: string): Promise<void>;
  /** Removes the folder and whatever is still in it. */
  dispose(): Promise<void>;
}

/** `parent`: where the private folder is made (the temp folder unless told). Nothing is created before the first upload. */
export function createUploadFolder(parent?: string): UploadFolder {
  let folder: Promise<string> | null = null;
  const ensure = (): Promise<string> =>
    (folder ??= (async () => {
      const base = parent ?? tmpdir();
      await mkdir(base, { recursive: true });
      // mkdtemp makes the folder 0700 with a name no one can guess ahead.
      return mkdtemp(join(base, 'stream-inspector-uploads-'));
    })());
  return {
    async create(name) {
      const dir = await ensure();
      const safe =
        basename(name)
          .replace(/[^\w.-]+/g, '_')
          .slice(-120) || 'upload';
      const path = join(dir, `${randomBytes(4).toString('hex')}-${safe}`);
      // Read back by the importers while it is still being written: opened for both.
      return { path, handle: await open(path, 'wx+', 0o600) };
    },
    remove: (path) => rm(path, { force: true }),
    async dispose() {
      const made = folder;
      folder = null;
      if (made) await rm(await made, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
