import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InspectorService } from '../../../src-shared/contract/inspector';
import type { SampleInfo, SessionSummary } from '../../../src-shared/contract/payloads';
import type { SessionCommands } from '../../hosts/compose';
import { sampleById, SAMPLES } from './catalogue';

/** resources/samples of the project, for hosts that run from the sources (the browser host, the tests). */
export const PROJECT_SAMPLES_DIR = fileURLToPath(new URL('../../../resources/samples', import.meta.url));

export type SampleCommands = Pick<InspectorService, 'listSamples' | 'openSample'>;

/**
 * File → Open Sample for a host: the renderer names a sample by id and the host opens the
 * sample's own files from `samplesDir`. No path crosses the contract, so opening a sample
 * needs none of the trust a user-chosen path does.
 */
export function sampleCommands(sessions: Pick<SessionCommands, 'openFile'>, samplesDir: string): SampleCommands {
  const infos: SampleInfo[] = SAMPLES.map(({ id, title, summary, files }) => ({
    id,
    title,
    summary,
    sessions: files.length,
  }));
  return {
    listSamples: () => Promise.resolve(infos),
    async openSample({ id }) {
      const sample = sampleById(id);
      if (!sample) throw new Error(`There is no sample named '${id}'.`);
      const opened: SessionSummary[] = [];
      for (const file of sample.files) {
        const title = file.label ? `${sample.title} — ${file.label}` : sample.title;
        opened.push(await sessions.openFile({ path: join(samplesDir, file.file), title }));
      }
      return opened;
    },
  };
}
