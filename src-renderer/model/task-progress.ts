import type { TaskProgress } from '../../src-shared/contract';
import { formatBytes } from './format';

/**
 * What a progress bar says about a long open, upload or export: how much of the file has
 * arrived and how much is decoded (as fractions for the bar's two fills), and the rates.
 */
export interface ProgressView {
  /** What is running: "Uploading and decoding" (the header names the file). */
  title: string;
  /** 0..1 of the bytes that have arrived (an upload; 1 for a file on disk). */
  received: number;
  /** 0..1 of the bytes decoded. */
  decoded: number;
  /** "12 MB of 52 MB uploaded · 9.8 MB decoded". */
  bytes: string;
  /** "41,250 envelopes/s · 3.1 MB/s". */
  rate: string;
}

const TITLES: Record<TaskProgress['task'], string> = {
  upload: 'Uploading and decoding',
  open: 'Decoding',
  export: 'Exporting',
};

const fraction = (part: number, total: number): number => (total > 0 ? Math.min(1, Math.max(0, part / total)) : 0);

export function progressView(progress: TaskProgress): ProgressView {
  const { task, total, received, decoded } = progress;
  const of = total > 0 ? ` of ${formatBytes(total)}` : '';
  const bytes =
    task === 'upload'
      ? `${formatBytes(received)}${of} uploaded · ${formatBytes(decoded)} decoded`
      : `${formatBytes(decoded)}${of} ${task === 'export' ? 'written' : 'decoded'}`;
  const envelopes = Math.round(progress.envelopesPerSecond).toLocaleString('en-US');
  return {
    title: TITLES[task],
    received: task === 'upload' ? fraction(received, total) : fraction(decoded, total),
    decoded: fraction(decoded, total),
    bytes,
    rate: `${envelopes} envelopes/s · ${formatBytes(Math.round(progress.bytesPerSecond))}/s`,
  };
}
