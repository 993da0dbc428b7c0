#!/usr/bin/env node
// Regenerates every raster icon from resources/icons/icon.svg (`npm run icons`):
//   resources/icons/png/NxN.png   16–1024 px (the Linux icon set, the window icon)
//   resources/icons/icon.ico      Windows (installer, executable)
//   resources/icons/icon.icns     macOS
//   resources/icons/favicon/favicon.png   the page icon (the renderer's public folder)
// resvg rasterises the SVG at each size (no downscaling blur at 16 px); png2icons packs the
// .ico and .icns from the 1024 px rendering. Both are plain npm packages: nothing is fetched.
import { Resvg } from '@resvg/resvg-js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import png2icons from 'png2icons';

export const ICON_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icons');
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const FAVICON_SIZE = 64;

function render(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } }).render().asPng();
}

function required(buffer, what) {
  if (!buffer) throw new Error(`png2icons could not build ${what}`);
  return buffer;
}

async function main() {
  const svg = await readFile(join(ICON_DIR, 'icon.svg'));
  await mkdir(join(ICON_DIR, 'png'), { recursive: true });
  await mkdir(join(ICON_DIR, 'favicon'), { recursive: true });
  const written = [];
  const write = async (relative, bytes) => {
    await writeFile(join(ICON_DIR, relative), bytes);
    written.push(`${relative} (${bytes.length} bytes)`);
  };

  let largest = null;
  for (const size of PNG_SIZES) {
    const png = render(svg, size);
    await write(join('png', `${size}x${size}.png`), png);
    largest = png;
  }
  await write(join('favicon', 'favicon.png'), render(svg, FAVICON_SIZE));
  // forWinExe: PNG entries from 64 px up, BMP below (what older Windows shells display).
  await write('icon.ico', required(png2icons.createICO(largest, png2icons.BICUBIC2, 0, false, true), 'icon.ico'));
  await write('icon.icns', required(png2icons.createICNS(largest, png2icons.BICUBIC2, 0), 'icon.icns'));
  console.log(`Icons written to ${ICON_DIR}:\n  ${written.join('\n  ')}`);
}

await main();
