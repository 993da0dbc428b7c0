import { randomBytes } from 'node:crypto';
import type { EnvironmentInput, EnvironmentsState, EnvironmentView } from '../../../src-shared/contract/payloads';
import * as s from '../../../src-shared/contract/schema';
import type { Variable } from '../../../src-shared/requests/variables';
import { jsonFile } from '../storage/json-file';
import type { SecretCipher } from './secret-cipher';

/**
 * Environments (`Dev`, `Staging`) with their variables, and which one is active, in
 * `environments.json` of the user-data folder (mode 0600). A secret's value is sealed by the
 * host's cipher before it is written and is never part of what the renderer is sent: the
 * renderer learns only that it has one.
 */
export interface EnvironmentStore {
  state(): Promise<EnvironmentsState>;
  save(input: EnvironmentInput): Promise<EnvironmentsState>;
  remove(id: string): Promise<EnvironmentsState>;
  setActive(id: string | null): Promise<EnvironmentsState>;
  /** The active environment's name and variables with their values (secrets opened): for main's own use only. */
  active(): Promise<ActiveEnvironment>;
}

/** A variable of the active environment; `problem` when its secret cannot be opened (it fails only a request that uses it). */
export type ActiveVariable = Variable & { problem?: string };
export interface ActiveEnvironment {
  name: string | null;
  variables: ActiveVariable[];
}

const StoredVariable = s.object({
  name: s.string({ nonEmpty: true, max: 100 }),
  secret: s.boolean(),
  /** A plain variable's value. */
  value: s.optional(s.string()),
  /** A secret's value as the cipher sealed it, and whether that cipher encrypted. */
  sealed: s.optional(s.string()),
  encrypted: s.optional(s.boolean()),
});
const StoredEnvironment = s.object({
  id: s.string({ nonEmpty: true, max: 64 }),
  name: s.string({ nonEmpty: true, max: 200 }),
  variables: s.array(StoredVariable),
});
const Document = s.object({
  version: s.literal(1),
  activeId: s.nullable(s.string()),
  environments: s.array(StoredEnvironment),
});
type DocumentData = s.Infer<typeof Document>;
type StoredVariableData = s.Infer<typeof StoredVariable>;

export function createEnvironmentStore(path: string, cipher: SecretCipher): EnvironmentStore {
  const file = jsonFile<DocumentData>(path, {
    fallback: () => ({ version: 1, activeId: null, environments: [] }),
    check: (value) => Document.parse(value, 'environments.json'),
    mode: 0o600,
  });

  const view = (doc: DocumentData): EnvironmentsState => ({
    environments: doc.environments.map((env): EnvironmentView => ({
      id: env.id,
      name: env.name,
      variables: env.variables.map((v) =>
        v.secret
          ? { name: v.name, secret: true, hasValue: v.sealed !== undefined }
          : { name: v.name, secret: false, value: v.value ?? '', hasValue: true },
      ),
    })),
    activeId: doc.environments.some((e) => e.id === doc.activeId) ? doc.activeId : null,
    secretStorage: { encrypted: cipher.encrypted, description: cipher.description },
  });

  const openSecret = (env: string, v: StoredVariableData): string => {
    if (v.sealed === undefined)
      throw new Error(`The secret ${v.name} of "${env}" has no value yet: enter it in the environment.`);
    if (v.encrypted && !cipher.encrypted)
      throw new Error(
        `The secret ${v.name} of "${env}" was encrypted by the desktop app's keychain, which this host cannot open: enter it again here.`,
      );
    try {
      return cipher.open(v.sealed);
    } catch (error) {
      throw new Error(
        `The secret ${v.name} of "${env}" could not be decrypted (${error instanceof Error ? error.message : String(error)}): enter it again.`,
      );
    }
  };

  return {
    state: async () => view(await file.read()),

    async save(input) {
      const doc = await file.read();
      const name = input.name.replace(/\s+/g, ' ').trim();
      if (name === '') throw new Error('An environment needs a name.');
      const seen = new Set<string>();
      for (const v of input.variables) {
        if (seen.has(v.name)) throw new Error(`The variable ${v.name} is defined twice in "${name}".`);
        seen.add(v.name);
      }
      const existing = input.id === undefined ? undefined : doc.environments.find((e) => e.id === input.id);
      if (input.id !== undefined && !existing)
        throw new Error(`There is no environment '${input.id}' (it may have been deleted).`);
      const variables = input.variables.map((v): StoredVariableData => {
        if (!v.secret) return { name: v.name, secret: false, value: v.value ?? '' };
        if (v.value !== undefined)
          return { name: v.name, secret: true, sealed: cipher.seal(v.value), encrypted: cipher.encrypted };
        // A secret sent without a value keeps the one held (it never went to the renderer), also when it was renamed from a plain variable.
        const before = existing?.variables.find((old) => old.name === v.name);
        if (before?.secret && before.sealed !== undefined) return { ...before };
        if (before && !before.secret)
          return { name: v.name, secret: true, sealed: cipher.seal(before.value ?? ''), encrypted: cipher.encrypted };
        return { name: v.name, secret: true };
      });
      const id = existing?.id ?? `e${randomBytes(6).toString('hex')}`;
      const saved = { id, name, variables };
      const environments = existing
        ? doc.environments.map((e) => (e.id === id ? saved : e))
        : [...doc.environments, saved];
      const next: DocumentData = { version: 1, activeId: doc.activeId ?? id, environments };
      await file.write(next);
      return view(next);
    },

    async remove(id) {
      const doc = await file.read();
      const next: DocumentData = {
        version: 1,
        activeId: doc.activeId === id ? null : doc.activeId,
        environments: doc.environments.filter((e) => e.id !== id),
      };
      await file.write(next);
      return view(next);
    },

    async setActive(id) {
      const doc = await file.read();
      if (id !== null && !doc.environments.some((e) => e.id === id))
        throw new Error(`There is no environment '${id}' (it may have been deleted).`);
      const next: DocumentData = { ...doc, activeId: id };
      await file.write(next);
      return view(next);
    },

    async active() {
      const doc = await file.read();
      const env = doc.environments.find((e) => e.id === doc.activeId);
      if (!env) return { name: null, variables: [] };
      // A secret that cannot be opened fails only the request that uses it.
      const variables = env.variables.map((v): ActiveVariable => {
        if (!v.secret) return { name: v.name, value: v.value ?? '', secret: false };
        try {
          return { name: v.name, value: openSecret(env.name, v), secret: true };
        } catch (error) {
          return {
            name: v.name,
            value: '',
            secret: true,
            problem: error instanceof Error ? error.message : String(error),
          };
        }
      });
      return { name: env.name, variables };
    },
  };
}
