import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { findImportCycles } from './import-cycles';

const root = join(import.meta.dirname, '..');

describe('runtime import cycles', () => {
  test.each(['src-renderer', 'src-shared', 'src-main'])('%s has none', (folder) => {
    expect(findImportCycles(join(root, folder))).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a cycle is found; a type-only import does not make one', () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'b.ts'), "import { c } from './c';\nexport const b = c;\n");
    writeFileSync(join(dir, 'c.ts'), "import {\n  a,\n} from './a';\nexport const c = a;\n");
    writeFileSync(join(dir, 'd.ts'), "import type { a } from './a';\nexport type D = typeof a;\n");
    writeFileSync(join(dir, 'e.ts'), "import { type D } from './d';\nexport type E = D;\n");
    expect(findImportCycles(dir)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
