/**
 * The renderer's Content Security Policy, shared by the browser host (HTTP header) and the
 * Electron window (response header on every load). Stream content is untrusted: no inline
 * script, no eval, no remote loads of any kind; images only from the app itself, data: URIs
 * (tool-result images) and blob: (charts, exports). Styles allow 'unsafe-inline' because
 * Monaco injects its styles at run time.
 */
export function contentSecurityPolicy(options: { connect?: readonly string[] } = {}): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...(options.connect ?? [])],
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}
