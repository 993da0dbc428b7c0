/**
 * A file system error in words, its path first as `cat` says it ("run.sse: no such file or
 * directory"), rather than Node's "ENOENT: no such file or directory, open 'run.sse'";
 * undefined for any other error. The CLI prints it, and the importers refuse a file with it.
 */
export function fileErrorText(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { path } = error as NodeJS.ErrnoException;
  const described = /^[A-Z]+: ([^,]+), \w+ '/.exec(error.message);
  return typeof path === 'string' && described ? `${path}: ${described[1]}` : undefined;
}
