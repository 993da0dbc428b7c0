/**
 * Why a source ended badly, one entry per kind: `heading` titles the renderer's error toast
 * (the message says the rest). The contract's `Failure.kind` reads this table.
 */
export const FAILURE_KINDS = {
  'http-status': { heading: 'HTTP error' },
  'content-type': { heading: 'Not a stream' },
  dns: { heading: 'Host not found' },
  network: { heading: 'Network error' },
  tls: { heading: 'TLS error' },
  timeout: { heading: 'Timeout' },
  'idle-timeout': { heading: 'Timeout' },
  aborted: { heading: 'Stopped' },
  import: { heading: 'Import' },
  'tool-results': { heading: 'Tool results' },
  internal: { heading: 'Inspector' },
  /** The process that decodes sessions failed and was restarted (ErrorEvent only). */
  'worker-restart': { heading: 'Session worker restarted' },
} as const satisfies Record<string, { heading: string }>;

export type FailureKind = keyof typeof FAILURE_KINDS;

export const FAILURE_KIND_NAMES = Object.keys(FAILURE_KINDS) as readonly FailureKind[];
