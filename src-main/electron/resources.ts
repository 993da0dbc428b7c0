import { app } from 'electron';
import { join } from 'node:path';
import { RESOURCE_PATHS } from './resource-layout';

/**
 * The folder of what the app ships beside its code (icons, samples): the project's
 * `resources/` when running from the sources or the build output, the package's resources
 * folder once packaged (electron-builder's `extraResources` copies them there, outside the
 * asar archive, with the same layout).
 */
export function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');
}

/** The shipped sample recordings (File → Open Sample). */
export function samplesDir(): string {
  return join(resourcesDir(), RESOURCE_PATHS.samples);
}

/** The window icon (Linux and Windows; macOS takes the bundle's .icns). */
export function windowIconPath(): string {
  return join(resourcesDir(), RESOURCE_PATHS.windowIcon);
}
