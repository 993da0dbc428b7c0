import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { E2E_USER_DATA_PREFIX } from './user-data';

/** Removes the run's user-data folder; only one this suite made (its name says so). */
export default async function removeUserData(): Promise<void> {
  const folder = process.env['E2E_USER_DATA'];
  if (folder && basename(folder).startsWith(E2E_USER_DATA_PREFIX)) await rm(folder, { recursive: true, force: true });
}
