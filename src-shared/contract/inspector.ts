import { channelOf, command, contractNames, event, type ServiceOf } from './define';
import * as p from './payloads';
import * as s from './schema';

const SessionRef = s.object({ sessionId: p.SessionId });
const BlockRef = s.object({ sessionId: p.SessionId, block: s.index() });
const EnvelopeRef = s.object({ sessionId: p.SessionId, seq: s.index() });
const FrameRef = s.object({ sessionId: p.SessionId, leg: s.index(), seq: s.index() });
const BlocksRequest = s.object({ sessionId: p.SessionId, agent: s.optional(s.string()) });

/**
 * The one contract between main and the renderer. Commands resolve with plain data or reject
 * with an Error whose message is meant for the user; events are `onXxx`. Main implements
 * `InspectorService`; the preload, the browser host's WebSocket and the renderer's client are
 * all typed against it and derive their channels and allowlists from its keys.
 */
export const INSPECTOR_CONTRACT = {
  // App and host
  getAppInfo: command(s.none(), p.AppInfo),
  /** The embedded demo agent (null when it is not running). */
  getDemoAgent: command(s.none(), p.DemoAgentInfo),
  /** Electron: native open dialog, then open the file; null when cancelled. Browser: rejects. */
  showOpenDialog: command(s.none(), s.nullable(p.SessionSummary)),
  listRecentFiles: command(s.none(), s.array(s.string())),
  /** Opens an http(s) URL in the system browser after the user confirms; false when declined. */
  openExternal: command(p.ExternalUrl, s.boolean()),

  // Sources
  connect: command(p.ConnectRequest, p.SessionSummary),
  /** Closes the live request within a second and finalises the session. */
  stop: command(SessionRef, s.none()),
  openFile: command(p.OpenFileRequest, p.SessionSummary),
  openUpload: command(p.OpenUploadRequest, p.SessionSummary),
  /** The sample recordings the app ships (File → Open Sample). */
  listSamples: command(s.none(), s.array(p.SampleInfo)),
  /** Opens a shipped sample by id: one session per file of the sample, in order. */
  openSample: command(p.OpenSampleRequest, s.array(p.SessionSummary)),
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

  // Saved requests and environments, kept by main in the user-data folder
  listRequests: command(s.none(), s.array(p.SavedRequest)),
  saveRequest: command(p.SaveRequestInput, p.SavedRequest),
  deleteRequest: command(s.object({ id: p.SavedRequest.shape.id }), s.none()),
  /** Secret values are not in the answer: only whether each has one. */
  listEnvironments: command(s.none(), p.EnvironmentsState),
  saveEnvironment: command(p.EnvironmentInput, p.EnvironmentsState),
  deleteEnvironment: command(s.object({ id: p.EnvironmentView.shape.id }), p.EnvironmentsState),
  setActiveEnvironment: command(s.object({ id: s.nullable(p.EnvironmentView.shape.id) }), p.EnvironmentsState),
  /** The request with the active environment's values filled in as asked (for copy as curl); rejects naming an unknown variable. */
  resolveRequest: command(p.ResolveRequestInput, p.RequestTemplate),
  /** Live sessions of earlier runs, newest first, kept as recordings in the user-data folder. */
  listRecentSessions: command(s.none(), p.RecentSessions),
  openRecentSession: command(s.object({ id: p.RecentSession.shape.id }), p.SessionSummary),
  /** How many recent sessions to keep (0: none; older ones are deleted at once). */
  setRecentSessionsKeep: command(s.object({ keep: p.RecentSessions.shape.keep }), p.RecentSessions),

  // Events
  onSessionsChanged: event(s.array(p.SessionSummary)),
  onSessionBatch: event(p.SessionBatch),
  onLiveStatus: event(p.LiveStatus),
  onReplayState: event(p.ReplayState),
  onError: event(p.ErrorEvent),
  /** The proxy started, stopped (null) or forwarded a request. */
  onProxyChanged: event(s.nullable(p.ProxyState)),
  onHostCommand: event(p.HostCommand),
} as const;

export type InspectorContract = typeof INSPECTOR_CONTRACT;
export type InspectorService = ServiceOf<InspectorContract>;

/** Every channel of the contract starts with this prefix (the IPC wrapper checks it). */
export const CHANNEL_PREFIX = 'inspector:';

export const INSPECTOR_NAMES = contractNames(INSPECTOR_CONTRACT);
export type InspectorCommand = (typeof INSPECTOR_NAMES.commands)[number];
export type InspectorEvent = (typeof INSPECTOR_NAMES.events)[number];

export function inspectorChannel(key: InspectorCommand | InspectorEvent): string {
  return channelOf(CHANNEL_PREFIX, key);
}

/** Rows per batch event; a bigger backlog drains over the following frames. */
export const MAX_BATCH_ROWS = 5000;
/** Minimum spacing of batch events for one session (one animation frame). */
export const BATCH_INTERVAL_MS = 16;
/** Raw bytes returned by one getRawBytes call. */
export const MAX_RAW_BYTES = 1024 * 1024;
