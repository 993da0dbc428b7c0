import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIALECT_IDS } from '../dialects/registry';
import { ruleDialects, RULES, type RuleId } from './rules';

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

describe('the dialects each rule applies to', () => {
  const docs = readFileSync(join(root, 'docs/diagnostics.md'), 'utf8');
  const restricted = ids.filter((id) => ruleDialects(id) !== undefined);

  it.each(restricted)('%s names registered dialects, and docs/diagnostics.md lists them', (id) => {
    const dialects = ruleDialects(id) ?? [];
    for (const dialect of dialects) expect(DIALECT_IDS).toContain(dialect);
    expect(docs).toContain(`| \`${id}\` | ${dialects.map((d) => `\`${d}\``).join(', ')} |`);
  });

  it('the docs list no rule as restricted that the catalogue applies to every dialect', () => {
    const section = docs.slice(docs.indexOf('## Dialects a rule applies to'));
    const listed = [...section.matchAll(/^\| `([a-z0-9.-]+)` \| `/gm)].map((m) => m[1]);
    expect(listed.filter((id) => !restricted.includes(id as RuleId))).toEqual([]);
  });
});
