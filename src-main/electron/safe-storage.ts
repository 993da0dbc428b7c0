import { safeStorage } from 'electron';
import { plainSecrets, type SecretCipher } from '../services/requests/secret-cipher';

/**
 * Secret variable values sealed with Electron's safeStorage (macOS Keychain, Windows DPAPI,
 * the Secret Service or KWallet on Linux). Where it is not available, or where Linux falls
 * back to its hard-coded password (`basic_text`, which protects nothing), values are kept as
 * written in a 0600 file and the UI says so.
 */
export function safeStorageCipher(environmentsPath: string): SecretCipher {
  if (!safeStorage.isEncryptionAvailable())
    return plainSecrets(environmentsPath, 'this system offers the app no keychain to encrypt them with.');
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return plainSecrets(
      environmentsPath,
      "no keyring (Secret Service or KWallet) is running, and Electron's fallback key would not protect them.",
    );
  }
  return {
    encrypted: true,
    description: `Secret values are encrypted with the system keychain (Electron safeStorage) in ${environmentsPath}.`,
    seal: (value) => safeStorage.encryptString(value).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
