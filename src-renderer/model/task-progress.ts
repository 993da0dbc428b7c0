import type { TaskProgress } from '../../src-shared/contract';
import { formatBytes } from './format';

/**
 * What a progress bar says about a long open, upload or export: how much of the file has
 * arrived and how much is decoded or written (as fractions for the bar's two fills), and the rates.
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

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

export function progressView(progress: TaskProgress): ProgressView {
  if (progress.task === 'export') return exportView(progress);
  const { task, total, received, decoded } = progress;
  const of = total > 0 ? ` of ${formatBytes(total)}` : '';
  const bytes =
    task === 'upload'
      ? `${formatBytes(received)}${of} uploaded · ${formatBytes(decoded)} decoded`
      : `${formatBytes(decoded)}${of} decoded`;
  return {
    title: TITLES[task],
    received: task === 'upload' ? fraction(received, total) : fraction(decoded, total),
    decoded: fraction(decoded, total),
    bytes,
    rate: rateOf(progress),
  };
}

const rateOf = (progress: TaskProgress): string =>
  `${count(progress.envelopesPerSecond)} envelopes/s · ${formatBytes(Math.round(progress.bytesPerSecond))}/s`;

/**
 * An export fills to the bytes written where its size is known up front (a raw capture, a
 * format built whole), else to the envelopes it has written of the session's.
 */
function exportView(progress: TaskProgress): ProgressView {
  const { total, decoded: written, envelopes, envelopesTotal } = progress;
  const done = total > 0 ? fraction(written, total) : fraction(envelopes, envelopesTotal ?? 0);
  const bytes =
    total > 0
      ? `${formatBytes(written)} of ${formatBytes(total)} written`
      : `${formatBytes(written)} written · ${count(envelopes)}${envelopesTotal ? ` of ${count(envelopesTotal)}` : ''} envelopes`;
  return { title: TITLES.export, received: done, decoded: done, bytes, rate: rateOf(progress) };
}
