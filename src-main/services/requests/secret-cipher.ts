/**
 * How secret variable values are kept at rest. Electron's safeStorage (the system keychain or
 * its equivalent) where the platform has it; otherwise the values are written as they are, in
 * a file only the user can read (0600), and the UI says so.
 */
export interface SecretCipher {
  /** True when `seal` really encrypts. */
  readonly encrypted: boolean;
  /** One sentence for the user: where and how secrets are kept. */
  readonly description: string;
  seal(value: string): string;
  open(sealed: string): string;
}

/** No encryption available: values stay as written, protected only by the file's mode. */
export function plainSecrets(path: string, why: string): SecretCipher {
  return {
    encrypted: false,
    description: `Secret values are stored unencrypted in ${path} (readable only by your user account, mode 0600): ${why}`,
    seal: (value) => value,
    open: (sealed) => sealed,
  };
}
