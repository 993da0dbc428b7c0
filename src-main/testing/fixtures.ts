import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WireFormat } from '../../src-shared/agents/wire-formats';

/** The upstream fixtures ship with the project (resources/fixtures/upstream, with their README and MANIFEST). */
export const FIXTURES_DIR = resolve(
  process.env['STREAM_INSPECTOR_FIXTURES'] ??
    join(dirname(fileURLToPath(import.meta.url)), '../../resources/fixtures/upstream'),
);

/**
 * The fixtures are required test data: a missing folder fails the suite loudly rather than
 * skipping the tests that would have caught a regression.
 */
function fixturesDir(): string {
  if (!existsSync(join(FIXTURES_DIR, 'MANIFEST.json'))) {
    throw new Error(
      `Upstream fixtures not found in ${FIXTURES_DIR}: the checkout is incomplete, or STREAM_INSPECTOR_FIXTURES points elsewhere.`,
    );
  }
  return FIXTURES_DIR;
}

export function fixturePath(name: string): string {
  return join(fixturesDir(), name);
}

export function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(name)));
}

export function readFixtureText(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A file of this project (docs the app embeds, for example), by its path from the root. */
export function readProjectText(path: string): string {
  return readFileSync(join(PROJECT_ROOT, path), 'utf8');
}

/** Every `.sse` fixture, sorted. */
export function listSseFixtures(): string[] {
  return readdirSync(fixturesDir())
    .filter((f) => f.endsWith('.sse'))
    .sort();
}

export interface ManifestEntry {
  file: string;
  kind: WireFormat | 'captured';
  bytes: number;
  sse_events: number;
  done_count: number;
  done_is_last: boolean;
  trailing_incomplete: boolean;
  ignored_non_data_lines: number;
  json_lines_over_2048: number;
  max_json_line_bytes: number;
  over_2048_by_type: Record<string, number>;
  error_frames: { error: string; message: string }[];
  envelope_types?: Record<string, number>;
  agents?: Record<string, number>;
  unclosed_blocks_at_end?: Record<string, number>;
  xml_item_tags?: Record<string, number>;
  text_roundtrip?: Record<string, boolean>;
  [key: string]: unknown;
}

export function readManifest(): Record<string, ManifestEntry> {
  const raw = JSON.parse(readFileSync(fixturePath('MANIFEST.json'), 'utf8')) as {
    files: Record<string, ManifestEntry>;
  };
  return raw.files;
}

/** The provider API fixtures (Anthropic Messages, OpenAI Responses), written from the scripted scenarios; see their README. */
export const PROVIDER_FIXTURES_DIR = join(PROJECT_ROOT, 'resources/fixtures/providers');

export function providerFixturePath(name: string): string {
  return join(PROVIDER_FIXTURES_DIR, name);
}

/** Every provider fixture, sorted: `anthropic-messages/….sse`, …, and the line-framed wires' `.txt` ones. */
export function listProviderFixtures(): string[] {
  return readdirSync(PROVIDER_FIXTURES_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.sse') || name.endsWith('.txt'))
    .map((name) => name.split('\\').join('/'))
    .sort();
}

/** Streams recorded by other projects' test suites (resources/fixtures/external, credited in its README). */
export const EXTERNAL_FIXTURES_DIR = join(PROJECT_ROOT, 'resources/fixtures/external');

export function externalFixturePath(name: string): string {
  return join(EXTERNAL_FIXTURES_DIR, name);
}

/** Every external stream, sorted (its folder's files but the README, which credits them). */
export function listExternalFixtures(): string[] {
  return readdirSync(EXTERNAL_FIXTURES_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'README.md')
    .map((entry) => relative(EXTERNAL_FIXTURES_DIR, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

export function readExternalFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(externalFixturePath(name)));
}

/** Streams of protocols no dialect knows, for the fallback (resources/fixtures/unknown, described in its README). */
export const UNKNOWN_FIXTURES_DIR = join(PROJECT_ROOT, 'resources/fixtures/unknown');

export function readUnknownFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(UNKNOWN_FIXTURES_DIR, name)));
}

/** Every `.sse` of resources/fixtures/unknown, sorted. */
export function listUnknownFixtures(): string[] {
  return readdirSync(UNKNOWN_FIXTURES_DIR)
    .filter((f) => f.endsWith('.sse'))
    .sort();
}

/** Every stream fixture of the project, by path: the SSE ones and the line-framed `.txt` ones of every folder. */
export function everyStreamFixture(): string[] {
  return [FIXTURES_DIR, PROVIDER_FIXTURES_DIR, UNKNOWN_FIXTURES_DIR, EXTERNAL_FIXTURES_DIR].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.sse') || name.endsWith('.txt'))
      .sort()
      .map((name) => join(dir, name)),
  );
}
