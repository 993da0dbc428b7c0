import type { InspectorService } from '../../src-shared/contract/inspector';

/**
 * The largest file the browser host takes as an upload. Any page with the run's token may
 * send one, and each is written whole to the run's upload folder, so the host refuses one
 * larger than this before a byte is sent (a file on this machine can still be named on the
 * command line that starts the host, and is read where it is). Generous by default;
 * STREAM_INSPECTOR_MAX_UPLOAD_MB sets it.
 */
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;

export const MAX_UPLOAD_ENV = 'STREAM_INSPECTOR_MAX_UPLOAD_MB';

const MB = 1024 * 1024;

/** The limit STREAM_INSPECTOR_MAX_UPLOAD_MB sets (whole MiB, 1 or more); the default when unset. */
export function maxUploadBytesFrom(env: Record<string, string | undefined>): number {
  const value = env[MAX_UPLOAD_ENV];
  if (value === undefined || value === '') return DEFAULT_MAX_UPLOAD_BYTES;
  if (!/^[1-9]\d{0,9}$/.test(value))
    throw new Error(`${MAX_UPLOAD_ENV} takes a size in MiB (a whole number, 1 or more), not '${value}'`);
  return Number(value) * MB;
}

function shown(bytes: number): string {
  return bytes >= 1024 * MB ? `${+(bytes / 1024 / MB).toFixed(2)} GiB` : `${+(bytes / MB).toFixed(1)} MiB`;
}

/** What the host answers an upload over the limit: HTTP's 413, in words the page shows as they are. */
export function uploadTooLarge(name: string, size: number, maxBytes: number): Error {
  return new Error(
    `413 Payload Too Large: ${name} is ${shown(size)}, over this browser host's upload limit of ${shown(maxBytes)}. ` +
      `Name the file on the command line that starts the inspector (it is then read where it is), ` +
      `open it in the desktop app, or raise the limit with ${MAX_UPLOAD_ENV}.`,
  );
}

type Uploads = Pick<InspectorService, 'beginUpload' | 'openUpload'>;

/** `service` with its uploads limited to `maxBytes`: the announced size of a streamed one, the bytes of one sent whole. */
export function limitUploads<S extends Uploads>(service: S, maxBytes: number): S {
  return {
    ...service,
    beginUpload(request) {
      if (request.size > maxBytes) return Promise.reject(uploadTooLarge(request.name, request.size, maxBytes));
      return service.beginUpload(request);
    },
    openUpload(request) {
      // base64: 4 characters for 3 bytes, less its padding.
      const size = request.base64 === undefined ? 0 : Math.floor((request.base64.length * 3) / 4);
      if (size > maxBytes) return Promise.reject(uploadTooLarge(request.name, size, maxBytes));
      return service.openUpload(request);
    },
  };
}
