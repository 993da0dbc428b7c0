import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES, type RuleId } from './rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ids = Object.keys(RULES) as RuleId[];

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts') && e.name !== 'catalogue.test.ts')
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

describe('the rule catalogue', () => {
  const docs = readFileSync(join(root, 'docs/diagnostics.md'), 'utf8');

  it.each(ids)('%s is documented in docs/diagnostics.md with its severity', (id) => {
    expect(docs).toContain(`### \`${id}\` (${RULES[id].severity})`);
  });

  it('documents no rule that the catalogue does not have', () => {
    const documented = [...docs.matchAll(/^### `([a-z0-9.-]+)` \(/gm)].map((m) => m[1]);
    expect(documented.filter((id) => !(id && id in RULES))).toEqual([]);
  });

  const tests = [...testSources(join(root, 'src-shared')), ...testSources(join(root, 'src-main'))].join('\n');
  it.each(ids)('%s is exercised by a test', (id) => {
    expect(tests).toContain(`'${id}'`);
  });
});
