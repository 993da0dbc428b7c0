import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, matchesGlob, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import viteConfig from '../electron.vite.config';
import { RESOURCE_PATHS } from '../src-main/electron/resource-layout';

/**
 * The packaging configuration (electron-builder.json), checked the way electron-builder reads
 * it: loaded by its own config loader and validated against its own schema
 * (app-builder-lib/scheme.json), then every file it names is looked up. Packaging itself
 * needs the Electron binaries from the network; this is what can be proven without them.
 */
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig: (
    projectDir: string,
    configPath: string | null,
    configFromOptions: object | null,
  ) => Promise<BuilderConfig>;
  validateConfiguration: (config: object, debugLogger: object) => Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => object };

interface FileSet {
  from?: string;
  to?: string;
  filter?: string | string[];
}
interface FileAssociation {
  ext: string;
  name?: string;
  mimeType?: string;
  icon?: string;
}
type Target = string | { target: string; arch?: string[] };
interface BuilderConfig {
  appId?: string;
  productName?: string;
  directories?: { output?: string; buildResources?: string };
  files?: (string | FileSet)[];
  extraResources?: FileSet[];
  electronFuses?: Record<string, boolean>;
  fileAssociations?: FileAssociation[];
  linux?: { target?: Target[]; icon?: string };
  mac?: { target?: Target[]; icon?: string };
  win?: { target?: Target[]; icon?: string };
  nsis?: { installerIcon?: string; uninstallerIcon?: string };
}

const ROOT = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};
const load = (): Promise<BuilderConfig> => getConfig(ROOT, null, null);

/** A resource path as electron-builder resolves it: in the build resources folder, else in the project. */
function resource(config: BuilderConfig, path: string): string {
  const inBuildResources = resolve(ROOT, config.directories?.buildResources ?? 'build', path);
  return existsSync(inBuildResources) ? inBuildResources : resolve(ROOT, path);
}

const targetNames = (targets: Target[] | undefined): string[] =>
  (targets ?? []).map((t) => (typeof t === 'string' ? t : t.target));

/** Where electron-vite writes one build's entry, from electron.vite.config.ts. */
function builtEntry(build: 'main' | 'preload', name: string): string {
  const options = viteConfig[build]?.build as { outDir: string; rollupOptions: { output: { entryFileNames: string } } };
  return resolve(options.outDir, options.rollupOptions.output.entryFileNames.replace('[name]', name));
}

describe('electron-builder configuration', () => {
  it('is what electron-builder loads, and passes its own schema', async () => {
    const config = await load();
    expect(config.appId).toBe('io.github.agent-stream-inspector');
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the schema check fails on an option electron-builder does not know', async () => {
    const { electronFuses, ...config } = await load();
    await expect(
      validateConfiguration({ ...config, electronFuse: electronFuses }, new DebugLogger(false)),
    ).rejects.toThrow(/unknown property 'electronFuse'/);
  });

  it('builds AppImage and deb, dmg and nsis, under the product name', async () => {
    const config = await load();
    expect(config.productName).toBe('Agent Stream Inspector');
    expect(targetNames(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
    expect(pkg.scripts['dist']).toMatch(/npm run build && electron-builder/);
  });

  it('sets the fuses of a packaged build: no Node escape hatches, encrypted cookies, only the verified asar', async () => {
    expect((await load()).electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('associates .recording and .sse files with the app', async () => {
    const associations = (await load()).fileAssociations ?? [];
    expect(associations.map((a) => a.ext)).toEqual(['recording', 'sse']);
    for (const association of associations) {
      expect(association.name).toBeTruthy();
      expect(association.mimeType).toBeTruthy();
      // electron-builder adds .icns (macOS) or .ico (Windows) to an icon named without one.
      for (const ext of ['icns', 'ico'])
        expect(existsSync(resource(await load(), `${association.icon}.${ext}`)), `${association.icon}.${ext}`).toBe(
          true,
        );
    }
  });

  it('names icons that exist: the Linux PNG set, the .icns and the .ico', async () => {
    const config = await load();
    const linuxIcons = resource(config, config.linux!.icon!);
    expect(statSync(linuxIcons).isDirectory()).toBe(true);
    expect(readdirSync(linuxIcons)).toEqual(
      expect.arrayContaining(['16x16.png', '256x256.png', '512x512.png', '1024x1024.png']),
    );
    for (const icon of [
      config.mac!.icon!,
      config.win!.icon!,
      config.nsis!.installerIcon!,
      config.nsis!.uninstallerIcon!,
    ]) {
      expect(statSync(resource(config, icon)).isFile(), icon).toBe(true);
    }
  });

  it('packs the entry points electron-vite builds', async () => {
    // The loader normalises `files` to file sets; the app's own files are their filters.
    const files = ((await load()).files ?? []).flatMap((f) =>
      typeof f === 'string' ? [f] : f.from === undefined ? [f.filter ?? []].flat() : [],
    );
    const packed = (path: string): boolean =>
      files.some((glob) => !glob.startsWith('!') && matchesGlob(path, glob)) &&
      !files.some((glob) => glob.startsWith('!') && matchesGlob(path, glob.slice(1)));
    const main = builtEntry('main', 'index');
    expect(main).toBe(resolve(ROOT, pkg.main));
    const entries = [
      main,
      builtEntry('main', 'session-worker'),
      builtEntry('preload', 'preload'),
      resolve(viteConfig.renderer!.build!.outDir!, 'index.html'),
    ];
    for (const entry of entries) expect(packed(relative(ROOT, entry)), relative(ROOT, entry)).toBe(true);
    expect(packed('package.json')).toBe(true);
    expect(packed('out/main/index.js.map')).toBe(false);
    // The command-line bundle is not part of the desktop app.
    expect(packed('out/cli/main.js')).toBe(false);
  });

  it('ships the samples and the window icon where the app looks for them once packaged', async () => {
    const extra = (await load()).extraResources ?? [];
    const shipped = (inResources: string): string | undefined => {
      for (const set of extra) {
        const from = relative('resources', set.from ?? '');
        const inside = relative(from, inResources);
        if (inside.startsWith('..')) continue;
        const filters = [set.filter ?? '**/*'].flat();
        if (inside === '' || filters.some((f) => matchesGlob(inside, f))) return join(set.to ?? '', inside);
      }
      return undefined;
    };
    expect(shipped(RESOURCE_PATHS.windowIcon)).toBe(RESOURCE_PATHS.windowIcon);
    expect(existsSync(join(ROOT, 'resources', RESOURCE_PATHS.windowIcon))).toBe(true);
    const samples = readdirSync(join(ROOT, 'resources', RESOURCE_PATHS.samples)).filter((f) =>
      f.endsWith('.recording'),
    );
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples)
      expect(shipped(join(RESOURCE_PATHS.samples, sample))).toBe(join(RESOURCE_PATHS.samples, sample));
  });
});
