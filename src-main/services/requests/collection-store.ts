import { randomBytes } from 'node:crypto';
import {
  SavedRequest,
  type SaveRequestInput,
  type SavedRequest as SavedRequestData,
} from '../../../src-shared/contract/payloads';
import * as s from '../../../src-shared/contract/schema';
import { jsonFile } from '../storage/json-file';

/**
 * The saved requests of the sidebar's collection, in `requests.json` of the user-data folder,
 * in the order they were first saved. A request keeps its `{{variables}}` as written: values
 * live in the environments, secrets never here.
 */
export interface CollectionStore {
  list(): Promise<SavedRequestData[]>;
  save(input: SaveRequestInput): Promise<SavedRequestData>;
  remove(id: string): Promise<void>;
}

const Document = s.object({ version: s.literal(1), requests: s.array(SavedRequest, { max: 10_000 }) });
type DocumentData = s.Infer<typeof Document>;

export function createCollectionStore(path: string, now: () => number = Date.now): CollectionStore {
  const file = jsonFile<DocumentData>(path, {
    fallback: () => ({ version: 1, requests: [] }),
    check: (value) => Document.parse(value, 'requests.json'),
  });
  return {
    list: async () => (await file.read()).requests,
    async save(input) {
      const doc = await file.read();
      const name = input.name.replace(/\s+/g, ' ').trim();
      if (name === '') throw new Error('A saved request needs a name.');
      const at = now();
      const existing = input.id === undefined ? undefined : doc.requests.find((r) => r.id === input.id);
      if (input.id !== undefined && !existing)
        throw new Error(`There is no saved request '${input.id}' (it may have been deleted).`);
      const saved: SavedRequestData = {
        id: existing?.id ?? `r${randomBytes(6).toString('hex')}`,
        name,
        request: input.request,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      };
      const requests = existing ? doc.requests.map((r) => (r.id === saved.id ? saved : r)) : [...doc.requests, saved];
      await file.write({ version: 1, requests });
      return saved;
    },
    async remove(id) {
      const doc = await file.read();
      await file.write({ version: 1, requests: doc.requests.filter((r) => r.id !== id) });
    },
  };
}
