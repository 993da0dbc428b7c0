import { command, event } from './define';
import * as p from './payloads';
import * as s from './schema';

const SessionRef = s.object({ sessionId: p.SessionId });
const BlockRef = s.object({ sessionId: p.SessionId, block: s.index() });
const EnvelopeRef = s.object({ sessionId: p.SessionId, seq: s.index() });
const FrameRef = s.object({ sessionId: p.SessionId, leg: s.index(), seq: s.index() });
const BlocksRequest = s.object({ sessionId: p.SessionId, agent: s.optional(s.string()) });

/**
 * The session service's part of the contract: sources, sessions and their contents, tools,
 * diff, replay, the proxy and files. Answered in-process or by the session worker.
 */
export const SESSION_CONTRACT = {
  /** The embedded demo agent (null when it is not running). */
  getDemoAgent: command(s.none(), p.DemoAgentInfo),

  // Sources
  connect: command(p.ConnectRequest, p.SessionSummary),
  /** Closes the live request within a second and finalises the session. */
  stop: command(SessionRef, s.none()),
  openFile: command(p.OpenFileRequest, p.SessionSummary),
  /** Starts streaming a picked file to main (the browser host); openUpload with its id opens it as it arrives. */
  beginUpload: command(p.BeginUploadRequest, p.UploadTicket),
  sendUploadChunk: command(p.UploadChunkRequest, s.none()),
  abortUpload: command(p.AbortUploadRequest, s.none()),
  openUpload: command(p.OpenUploadRequest, p.SessionSummary),
  /** Opens the chosen entries of a HAR that waits for a choice, in order, as the session's legs. */
  openHarEntries: command(p.OpenHarEntriesRequest, p.SessionSummary),
  /**
   * Decodes a file session again as another dialect: a new session of the same file (its HAR
   * entries, check report and in-text reading) takes its place; answers with its summary.
   */
  decodeAgainAs: command(p.DecodeAgainAsRequest, p.SessionSummary),
  closeSession: command(SessionRef, s.none()),
  /** Renames a session (a blank title is refused); answers with its summary. */
  renameSession: command(p.RenameRequest, p.SessionSummary),

  // Sessions and their contents, fetched on demand
  listSessions: command(s.none(), s.array(p.SessionSummary)),
  getSession: command(SessionRef, p.SessionDetail),
  getRows: command(p.RowsRequest, p.RowsPage),
  /** Envelope seqs that match a filter expression (docs/filters.md); rejects with the parse error. */
  filterRows: command(p.FilterRowsRequest, p.SearchResult),
  getEnvelope: command(EnvelopeRef, p.EnvelopeDetail),
  getFrame: command(FrameRef, p.FrameDetail),
  getRawBytes: command(p.RawBytesRequest, p.RawBytes),
  getBlocks: command(BlocksRequest, s.array(p.BlockSummary)),
  getBlock: command(BlockRef, p.BlockDetail),
  getDiagnostics: command(SessionRef, s.array(p.Diagnostic)),
  /** What views that show blocks fetch as batches report new revisions: only what changed. */
  getBlockChanges: command(p.BlockChangesRequest, p.BlockChanges),
  /** What views that show findings fetch as batches report more: only the new ones. */
  getDiagnosticsSince: command(p.DiagnosticsSinceRequest, p.DiagnosticsPage),
  /** Read the session's text blocks again with another inline mode or tool tags (docs/inline.md). */
  setInline: command(s.object({ sessionId: p.SessionId, inline: p.InlineOptions }), p.SessionSummary),
  /** Chunk-size statistics (shape: src-shared/diagnostics/chunk-stats ChunkStatistics). */
  getStats: command(SessionRef, s.json<unknown>()),

  // Frontend tools
  sendToolResults: command(p.SendToolResultsRequest, p.SendToolResultsResult),

  // Diff: two finished sessions, block by block (typically one run in XML and in JSON)
  diffSessions: command(p.DiffRequest, p.DiffResult),
  /** A live session's request again in each wire format (`?format=` or the body's `format`): new sessions, to diff. */
  runInFormats: command(p.RunInFormatsRequest, s.array(p.SessionSummary)),

  // Replay
  startReplay: command(p.StartReplayRequest, p.SessionSummary),
  replayControl: command(p.ReplayControlRequest, p.ReplayState),

  // Recording proxy: forwards a frontend's requests to its agent server, one session per event stream
  startProxy: command(p.ProxyStartRequest, p.ProxyState),
  stopProxy: command(s.none(), s.none()),
  getProxy: command(s.none(), s.nullable(p.ProxyState)),

  // Files
  saveRecording: command(p.SaveRecordingRequest, p.SavedFile),
  exportSession: command(p.ExportRequest, p.SavedFile),
  /**
   * The session as a recording or an export, as bytes for the page to download (the browser
   * host, which has no save dialog). Rejects above MAX_DOWNLOAD_BYTES.
   */
  downloadSession: command(p.DownloadRequest, p.DownloadFile),

  // Events
  onSessionsChanged: event(s.array(p.SessionSummary)),
  onSessionBatch: event(p.SessionBatch),
  onLiveStatus: event(p.LiveStatus),
  /** Bytes and rates of a long open, upload or export, for its progress bar. */
  onProgress: event(p.TaskProgress),
  onReplayState: event(p.ReplayState),
  onError: event(p.ErrorEvent),
  /** The proxy started, stopped (null) or forwarded a request. */
  onProxyChanged: event(s.nullable(p.ProxyState)),
} as const;
