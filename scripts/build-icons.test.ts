import { Resvg } from '@resvg/resvg-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The icons `npm run icons` generates from resources/icons/icon.svg, read back from their headers. */
const ICONS = join(import.meta.dirname, '..', 'resources', 'icons');
const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk (always the first, right after the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The image sizes an .ico directory lists (a width byte of 0 means 256). */
function icoSizes(bytes: Buffer): number[] {
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1);
  const count = bytes.readUInt16LE(4);
  const sizes: number[] = [];
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    const width = bytes[entry] || 256;
    const height = bytes[entry + 1] || 256;
    expect(height).toBe(width);
    const length = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    expect(offset + length).toBeLessThanOrEqual(bytes.length);
    sizes.push(width);
  }
  return sizes;
}

/** The element types of an .icns file, checking the declared lengths add up to the file. */
function icnsTypes(bytes: Buffer): Map<string, Buffer> {
  expect(bytes.toString('latin1', 0, 4)).toBe('icns');
  expect(bytes.readUInt32BE(4)).toBe(bytes.length);
  const types = new Map<string, Buffer>();
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at + 4);
    expect(length).toBeGreaterThan(8);
    types.set(bytes.toString('latin1', at, at + 4), bytes.subarray(at + 8, at + length));
    at += length;
  }
  return types;
}

describe('app icons', () => {
  it.each(PNG_SIZES)('has a %i px PNG', (size) => {
    expect(pngSize(readFileSync(join(ICONS, 'png', `${size}x${size}.png`)))).toEqual({ width: size, height: size });
  });

  it('has a Windows .ico with 16 to 256 px images', () => {
    const sizes = icoSizes(readFileSync(join(ICONS, 'icon.ico')));
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]));
  });

  it('has a macOS .icns holding the 512 and 1024 px retina images', () => {
    const types = icnsTypes(readFileSync(join(ICONS, 'icon.icns')));
    // ic09 = 512 px, ic10 = 1024 px (512@2x); both hold PNG data.
    expect(pngSize(types.get('ic09')!)).toEqual({ width: 512, height: 512 });
    expect(pngSize(types.get('ic10')!)).toEqual({ width: 1024, height: 1024 });
  });

  it('has the 64 px favicon the renderer build copies', () => {
    expect(pngSize(readFileSync(join(ICONS, 'favicon', 'favicon.png')))).toEqual({ width: 64, height: 64 });
  });

  it('is in step with the SVG source (run `npm run icons` after editing it)', () => {
    const svg = readFileSync(join(ICONS, 'icon.svg'));
    for (const [file, size] of [
      ['favicon/favicon.png', 64],
      ['png/256x256.png', 256],
    ] as const) {
      const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } })
        .render()
        .asPng();
      expect(Buffer.from(rendered).equals(readFileSync(join(ICONS, file))), file).toBe(true);
    }
  });
});
