import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { judgeNavigation } from './window-policy';

/**
 * The window's security options are checked in the source, where Electronegativity reads
 * them too: the Electron binary (and so a real BrowserWindow) is not needed.
 */
type Options = Map<string, ts.Expression | 'spread'>;

function properties(literal: ts.ObjectLiteralExpression): Options {
  const out: Options = new Map();
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) out.set(`...${out.size}`, 'spread');
    else if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
      out.set(property.name.text, property.initializer);
  }
  return out;
}

/** The options literal of every `new BrowserWindow(...)` / `new BrowserView(...)` in src-main/electron. */
function windowConstructions(): { file: string; options: ts.Expression | undefined }[] {
  const dir = import.meta.dirname;
  const found: { file: string; options: ts.Expression | undefined }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        ['BrowserWindow', 'BrowserView', 'WebContentsView'].includes(node.expression.text)
      ) {
        found.push({ file, options: node.arguments?.[0] });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const literalValue = (expression: ts.Expression | 'spread' | undefined): unknown => {
  if (expression === undefined || expression === 'spread') return expression;
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return false;
  return expression.getText();
};

describe('every Electron window', () => {
  const windows = windowConstructions();

  it('is created in one place', () => {
    expect(windows.map((w) => w.file)).toEqual(['window.ts']);
  });

  it.each(windows.map((w) => [w.file, w.options] as const))(
    '%s: contextIsolation and sandbox on, no Node integration anywhere, no webviews',
    (_file, options) => {
      expect(options && ts.isObjectLiteralExpression(options)).toBe(true);
      const webPreferences = properties(options as ts.ObjectLiteralExpression).get('webPreferences');
      expect(
        webPreferences !== undefined && webPreferences !== 'spread' && ts.isObjectLiteralExpression(webPreferences),
      ).toBe(true);
      const prefs = properties(webPreferences as ts.ObjectLiteralExpression);
      // Written out literally, so no spread can override them.
      expect([...prefs.values()].filter((v) => v === 'spread')).toEqual([]);
      const values = Object.fromEntries([...prefs].map(([name, value]) => [name, literalValue(value)]));
      expect(values).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
      });
      expect(values).not.toHaveProperty('enableBlinkFeatures');
    },
  );
});

describe('navigation', () => {
  const isAppUrl = (url: string): boolean => url.startsWith('app://inspector/');

  it.each([
    ['app://inspector/index.html', 'allow'],
    ['https://docs.example/page', 'ask-external'],
    ['http://127.0.0.1:8787/', 'ask-external'],
    ['file:///etc/passwd', 'block'],
    ['FILE:///home/me/.ssh/id_rsa', 'block'],
    ['app://elsewhere/index.html', 'block'],
    ['data:text/html,<script>alert(1)</script>', 'block'],
    ['javascript:alert(1)', 'block'],
    ['about:blank', 'block'],
  ] as const)('to %s: %s', (url, verdict) => {
    expect(judgeNavigation(url, isAppUrl)).toBe(verdict);
  });
});
