import { isJsonObject, parseJson } from '../../../src-shared/json/values';
import { readExportedEnvelope, type ExportedEnvelope } from '../../../src-shared/recording/envelope-export';
import { payloadToSse } from '../../../src-shared/recording/items';
import type { Findings } from './findings';
import { itemConverter, ndjsonLines } from './items-source';
import { reiterable, type SourceFs } from './source-file';
import type { ImportedChunk, ImportedLeg, ImportedSource } from './types';

/**
 * An NDJSON file this inspector exported ("Envelopes (NDJSON)", src-shared/recording/envelope-export.ts):
 * its envelopes go back into the legs they came from, each sent as what the wire carried for
 * it (the terminator as `[DONE]`, an undecodable event as its data, an envelope with its
 * extras as fields), so the session reopens with its legs, its end and its blocks. A line
 * that is not an exported envelope is read as any NDJSON item, in the leg of the line before.
 * Null when the file's first line is not an exported envelope.
 */
export async function openEnvelopeExport(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
): Promise<ImportedSource | null> {
  const lines = () => ndjsonLines(path, fs, findings, bodyOffset, 'envelope');
  // The first line says whether this is an export; leaving the loop closes the file.
  for await (const { text } of lines()) {
    if (!exported(text)) return null;
    break;
  }
  let legs = 1;
  let leg = 0;
  for await (const { text } of lines()) {
    leg = exported(text)?.leg ?? leg;
    legs = Math.max(legs, leg + 1);
  }

  async function* legChunks(wanted: number): AsyncGenerator<ImportedChunk> {
    const ready: ImportedChunk[] = [];
    const convert = itemConverter(findings, ready);
    let current = 0;
    for await (const { text, offset, line } of lines()) {
      const envelope = exported(text);
      current = envelope?.leg ?? current;
      if (current !== wanted) continue;
      if (!envelope) convert(text, `Line ${line}`, offset, line);
      else if (envelope.data !== null) ready.push({ bytes: payloadToSse(envelope.data), receivedAt: 0 });
      yield* ready.splice(0);
    }
  }

  const imported: ImportedLeg[] = [];
  for (let index = 0; index < legs; index++) imported.push({ index, chunks: reiterable(() => legChunks(index)) });
  return {
    kind: 'ndjson-envelopes',
    path,
    size,
    legs: imported,
    actions: [],
    notes: [
      `Envelopes exported by this inspector: each is sent again, as its own chunk at time 0, in the leg it came from (${legs === 1 ? 'one leg' : `${legs} legs`}).`,
      'The export holds the envelopes, not the wire: each is sent as a JSON envelope, [DONE] where the stream had it; XML open tags and provider events are left out, and findings that only the wire showed (its framing and sizes) are not made again.',
    ],
    diagnostics: findings.list,
  };
}

function exported(text: string): ExportedEnvelope | null {
  const parsed = parseJson(text);
  return parsed.ok && isJsonObject(parsed.value) ? readExportedEnvelope(parsed.value) : null;
}
