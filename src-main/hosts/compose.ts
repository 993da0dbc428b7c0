import type { InspectorService } from '../../src-shared/contract/inspector';
import type { ConnectRequest } from '../../src-shared/contract/payloads';
import type { HostKeys, WorkspaceKeys } from '../services/sessions/session-service';

/** The session half of the contract, in-process (SessionService) or in a worker. */
export type SessionCommands = Omit<InspectorService, HostKeys | WorkspaceKeys>;

/** Saved requests, environments and recent sessions, and filling a request's variables before it is sent. */
export type WorkspaceCommands = Pick<InspectorService, WorkspaceKeys> & {
  prepareConnect(request: ConnectRequest): Promise<ConnectRequest>;
};

/** What a host adds to the session service: app info, dialogs, shell, menus, its samples (and may override saving). */
export type HostCommands = Pick<InspectorService, HostKeys> & Partial<Pick<InspectorService, 'saveRecording' | 'exportSession'>>;

/**
 * The full contract implementation for one host: session commands from the session service,
 * host commands from the host. Written out key by key so a missing member is a type error.
 */
export function composeInspector(sessions: SessionCommands, host: HostCommands, workspace: WorkspaceCommands): InspectorService {
  return {
    getAppInfo: host.getAppInfo,
    getDemoAgent: sessions.getDemoAgent,
    showOpenDialog: host.showOpenDialog,
    listRecentFiles: host.listRecentFiles,
    openExternal: host.openExternal,
    connect: async (request) => sessions.connect(await workspace.prepareConnect(request)),
    stop: sessions.stop,
    openFile: sessions.openFile,
    openUpload: sessions.openUpload,
    listSamples: host.listSamples,
    openSample: host.openSample,
    closeSession: sessions.closeSession,
    renameSession: sessions.renameSession,
    listSessions: sessions.listSessions,
    getSession: sessions.getSession,
    getRows: sessions.getRows,
    filterRows: sessions.filterRows,
    getEnvelope: sessions.getEnvelope,
    getFrame: sessions.getFrame,
    getRawBytes: sessions.getRawBytes,
    getBlocks: sessions.getBlocks,
    getBlock: sessions.getBlock,
    getDiagnostics: sessions.getDiagnostics,
    getBlockChanges: sessions.getBlockChanges,
    getDiagnosticsSince: sessions.getDiagnosticsSince,
    setInline: sessions.setInline,
    getStats: sessions.getStats,
    sendToolResults: sessions.sendToolResults,
    diffSessions: sessions.diffSessions,
    runInFormats: sessions.runInFormats,
    startReplay: sessions.startReplay,
    replayControl: sessions.replayControl,
    startProxy: sessions.startProxy,
    stopProxy: sessions.stopProxy,
    getProxy: sessions.getProxy,
    saveRecording: host.saveRecording ?? sessions.saveRecording,
    exportSession: host.exportSession ?? sessions.exportSession,
    downloadSession: sessions.downloadSession,
    listRequests: workspace.listRequests,
    saveRequest: workspace.saveRequest,
    deleteRequest: workspace.deleteRequest,
    listEnvironments: workspace.listEnvironments,
    saveEnvironment: workspace.saveEnvironment,
    deleteEnvironment: workspace.deleteEnvironment,
    setActiveEnvironment: workspace.setActiveEnvironment,
    resolveRequest: workspace.resolveRequest,
    listRecentSessions: workspace.listRecentSessions,
    openRecentSession: workspace.openRecentSession,
    setRecentSessionsKeep: workspace.setRecentSessionsKeep,
    onSessionsChanged: sessions.onSessionsChanged,
    onSessionBatch: sessions.onSessionBatch,
    onLiveStatus: sessions.onLiveStatus,
    onReplayState: sessions.onReplayState,
    onError: sessions.onError,
    onProxyChanged: sessions.onProxyChanged,
    onHostCommand: host.onHostCommand,
  };
}
