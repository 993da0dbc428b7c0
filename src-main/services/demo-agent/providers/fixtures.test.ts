import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listProviderFixtures, providerFixturePath } from '../../../testing/fixtures';
import { PROVIDER_APIS, scenarioFixtureName, scenarioSse } from './index';

/**
 * The provider fixtures are the scripted scenarios' bytes. They are checked in so tests and
 * users can open them; `UPDATE_PROVIDER_FIXTURES=1 npx vitest run <this file>` rewrites them
 * after a scenario changes.
 */
const cases = PROVIDER_APIS.flatMap((api) =>
  api.scenarios.map((scenario) => [scenarioFixtureName(api, scenario), scenarioSse(api, scenario)] as const),
);

describe('provider fixtures', () => {
  test.each(cases)('%s holds its scenario', (name, sse) => {
    const path = providerFixturePath(name);
    if (process.env['UPDATE_PROVIDER_FIXTURES'] === '1') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, sse);
    }
    expect(existsSync(path), `${name} is missing: run with UPDATE_PROVIDER_FIXTURES=1`).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(sse);
  });

  test('no fixture without a scenario', () => {
    expect(listProviderFixtures()).toEqual(cases.map(([name]) => name).sort());
  });
});
