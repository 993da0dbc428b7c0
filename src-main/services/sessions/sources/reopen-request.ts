import type { ConnectRequest, SessionSummary } from '../../../../src-shared/contract/payloads';
import type { UploadStream } from './upload-stream';

/** A session of a failed worker opened again from its file, under the id the renderer knows. */
export interface ReopenRequest {
  sessionId: string;
  path: string;
  title: string;
  format?: ConnectRequest['format'];
  /** A HAR file's entries the session had opened. */
  entries?: readonly number[];
  /** The check report that opened the recording: its failures are read from it again. */
  report?: string;
  inline?: ConnectRequest['inline'];
  /** The live run whose received bytes the file is (a session decoded again). */
  copyOf?: CopiedRun;
  /**
   * The file is the session's own (an upload's copy, a live run's bytes saved to be decoded
   * again, in the run's private folder): the reopened session removes it when it closes, as
   * the session it stands for would have.
   */
  owned?: boolean;
}

/** The live run a file session's bytes were received from (the file source's `copyOf`). */
export type CopiedRun = NonNullable<Extract<SessionSummary['source'], { kind: 'file' }>['copyOf']>;

/** A session's file opened again as a new session (decoded as another dialect), taking over its upload's copy. */
export type OpenAgainRequest = Omit<ReopenRequest, 'sessionId'> & { upload?: UploadStream };
