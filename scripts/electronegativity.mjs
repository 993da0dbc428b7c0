#!/usr/bin/env node
// `npm run electronegativity` (part of `npm test`): runs Electronegativity, Doyensec's
// static checker for Electron apps, over the desktop app's main-process sources and the
// renderer page as it is built (index.html with its meta CSP written in), then fails on any
// finding that docs/security.md does not justify in its "Electronegativity findings" table.
// Electronegativity itself always exits 0, so its findings are read here, as data.
//
// It runs offline: its release-list check (AvailableSecurityFixesGlobalCheck) fetches from the
// internet and is excluded (the Electron version is pinned by package-lock.json), and its
// messages are loaded from the package instead of being downloaded.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** `| \`CHECK_ID\` | \`file\` | why |` rows of docs/security.md's findings table. */
function justifications() {
  const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
  const section = doc.split(/^### Electronegativity findings$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| `([^`]+)` \| (.+?) \|$/gm)];
  return rows.map(([, id, file, why]) => ({ id, file, why: why.trim() }));
}

/** The files Electronegativity reads: src-main/electron's sources and the built page's HTML. */
async function stage() {
  register();
  const { withMetaCsp } = await import(join(root, 'src-main/web/csp.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'electronegativity-'));
  const electronDir = join(root, 'src-main/electron');
  for (const file of readdirSync(electronDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')))
    copyFileSync(join(electronDir, file), join(dir, file));
  writeFileSync(join(dir, 'index.html'), withMetaCsp(readFileSync(join(root, 'src-renderer/index.html'), 'utf8')));
  return dir;
}

async function electronegativity(input) {
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  // Its message loader downloads translations before every run; this one reads the bundled
  // English messages and nothing else (same module, registered in its place).
  const loader = join(packageDir, 'dist/locales/i18n.js');
  const offline = () => {
    require('i18n').configure({
      locales: ['en-US'],
      defaultLocale: 'en-US',
      directory: dirname(loader),
      updateFiles: false,
      objectNotation: true,
      register: global,
    });
    return Promise.resolve();
  };
  require.cache[loader] = {
    id: loader,
    filename: loader,
    loaded: true,
    exports: { __esModule: true, default: offline },
  };
  const run = require('@doyensec/electronegativity');
  const electronVersion = require('electron/package.json').version;
  return run(
    {
      input,
      isRelative: true,
      electronVersionOverride: electronVersion,
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
      parserPlugins: [],
    },
    false,
  );
}

const dir = await stage();
let result;
try {
  result = await electronegativity(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const justified = justifications();
const unjustified = [];
console.log(
  `Electronegativity: ${result.atomicChecks} atomic and ${result.globalChecks} global checks over src-main/electron and the renderer page.`,
);
for (const issue of result.issues) {
  const file = issue.file === 'N/A' ? 'N/A' : issue.file.replace(/^.*?[\\/]?(?=[^\\/]+$)/, '');
  const reason = justified.find((j) => j.id === issue.id && (j.file === file || j.file === '*'));
  const where = `${file}:${issue.location.line}`;
  if (reason)
    console.log(`  justified  ${issue.id} at ${where} (${issue.severity.name ?? issue.severity}): ${reason.why}`);
  else {
    unjustified.push(issue);
    console.log(
      `  FINDING    ${issue.id} at ${where} (${issue.severity.name ?? issue.severity}, ${issue.confidence.name ?? issue.confidence}): ${issue.description}${issue.sample ? ` — ${issue.sample}` : ''}`,
    );
  }
}
for (const error of result.errors) console.log(`  ERROR      ${error.file}: ${error.message ?? String(error)}`);
for (const j of justified) {
  if (!result.issues.some((issue) => issue.id === j.id))
    console.log(`  note: docs/security.md justifies ${j.id} in ${j.file}, which Electronegativity no longer reports.`);
}
if (unjustified.length > 0 || result.errors.length > 0) {
  console.log(
    `\n${unjustified.length} finding(s) not justified in docs/security.md ("Electronegativity findings"), ${result.errors.length} file(s) not parsed: fix them, or justify them there.`,
  );
  process.exit(1);
}
console.log('Every finding is justified in docs/security.md.');
