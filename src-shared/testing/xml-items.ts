import type { DiagnosticInit } from '../diagnostics/types';
import type { EnvelopeInit } from '../envelope/types';
import { Item } from '../dialects/legacy-xml/item';
import { frameOf } from './frames';

/** A legacy-XML Item started on `data`, recording what it emits and reports: for the decoder's parts in isolation. */
export interface RecordingItem {
  item: Item;
  envelopes: EnvelopeInit[];
  diagnostics: DiagnosticInit[];
}

export function recordingItem(data: string, seq = 3, rootAgent = 'root'): RecordingItem {
  const envelopes: EnvelopeInit[] = [];
  const diagnostics: DiagnosticInit[] = [];
  const item = new Item({
    callbacks: { onEnvelope: (envelope) => envelopes.push(envelope), onDiagnostic: (d) => diagnostics.push(d) },
    rootAgent,
  });
  item.start(frameOf(data, seq), data);
  return { item, envelopes, diagnostics };
}
