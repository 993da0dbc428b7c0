import { Readable } from 'node:stream';
import type { CliIo } from './io';

/** An in-memory CliIo for running commands in-process in tests. */
export function memoryIo(stdin: string | Uint8Array = ''): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    stdin: Readable.from([typeof stdin === 'string' ? Buffer.from(stdin) : Buffer.from(stdin)]),
    cwd: process.cwd(),
    interrupted: new Promise(() => undefined),
    out: () => out,
    err: () => err,
  };
}
