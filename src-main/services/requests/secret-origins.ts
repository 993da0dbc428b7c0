import { maskSecrets } from '../../../src-shared/requests/variables';

/**
 * Where a request filled with secrets may go (docs/security.md, "Secrets go only where the user
 * said"). The page that asks for a request to be filled is the least trusted part of the app:
 * in the browser host anyone holding its token speaks for it. So the first time a secret is to
 * be sent to an origin, main decides, through the host's own means: the desktop app asks in a
 * native dialog; the browser host, which has no trusted UI, allows this machine and the origins
 * named when it was started. An origin approved once stays approved until the app quits.
 */

/** Asks (or decides) whether `names` may be sent to `origin`; true to send. */
export type ApproveSecretOrigin = (origin: string, names: readonly string[]) => Promise<boolean>;

export interface SecretOriginGate {
  /** Throws, saying why and how to allow it, unless the secrets may go to `url`'s origin. */
  check(url: string, secrets: readonly { name: string; value: string }[]): Promise<void>;
}

/** `howToAllow` ends the refusal: what the user can do in this host to send it after all. */
export function createSecretOriginGate(approve: ApproveSecretOrigin, howToAllow: string): SecretOriginGate {
  const approved = new Set<string>();
  return {
    async check(url, secrets) {
      if (secrets.length === 0) return;
      let origin: string;
      try {
        origin = new URL(url).origin;
      } catch {
        throw new Error(maskSecrets(`Refused to fill secrets into '${url}': it is not a URL.`, secrets));
      }
      if (approved.has(origin)) return;
      const names = secrets.map((s) => s.name);
      if (!(await approve(origin, names))) {
        throw new Error(
          maskSecrets(
            `Refused to send ${names.map((n) => `{{${n}}}`).join(', ')} to ${origin}: that origin was not approved for secrets. ${howToAllow}`,
            secrets,
          ),
        );
      }
      approved.add(origin);
    },
  };
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The browser host's way to allow an origin, told when it refuses one. */
export const BROWSER_HOST_HOW_TO_ALLOW =
  'The browser host sends secrets only to this machine and to the origins named when it starts: npm start -- --allow-secrets-to ORIGIN.';

/**
 * The browser host's rule: no dialog in main to ask with, so secrets go to this machine
 * (loopback, where their file already is) and to the origins the user named when starting it
 * (`npm start -- --allow-secrets-to ORIGIN`); a page cannot add to either.
 */
export function approveFromStartup(origins: readonly string[]): ApproveSecretOrigin {
  const allowed = new Set(origins.map((o) => new URL(o).origin));
  return (origin) => Promise.resolve(allowed.has(origin) || LOOPBACK_HOSTS.test(new URL(origin).hostname));
}
