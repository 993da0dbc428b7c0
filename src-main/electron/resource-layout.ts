/**
 * Where the app's resources sit inside its resources folder (the project's `resources/` from
 * the sources, the package's resources folder once packaged). electron-builder.json's
 * `extraResources` copies them to these same places; a test holds the two together.
 */
export const RESOURCE_PATHS = {
  samples: 'samples',
  windowIcon: 'icons/png/512x512.png',
} as const;
