/**
 * The data-testid values e2e tests rely on, in one place. Views import these constants
 * instead of writing the strings, so renaming one is a compile error in the tests too.
 * Row-level ids take the seq: `${TEST_IDS.timelineRow}-${seq}`.
 */
export const TEST_IDS = {
  app: 'app',
  bridgeBanner: 'bridge-banner',
  errorBanner: 'error-banner',
  errorItem: 'error-item',
  errorDismiss: 'error-dismiss',
  helpButton: 'help-button',
  helpOverlay: 'help-overlay',

  // Navigation (tab ids: `${nav}-${view}`: nav-connect, nav-timeline, nav-blocks, nav-diagnostics, nav-diff)
  nav: 'nav',
  viewRoot: 'view',

  // Sessions sidebar
  sessionList: 'session-list',
  sessionItem: 'session-item',
  sessionClose: 'session-close',
  newSession: 'new-session',
  openFileButton: 'open-file',
  fileInput: 'file-input',
  viewError: 'view-error',
  dropZone: 'drop-zone',
  recentFiles: 'recent-files',
  recentFile: 'recent-file',

  // Session header and status line
  sessionHeader: 'session-header',
  sessionTitle: 'session-title',
  sessionState: 'session-state',
  statusLine: 'status-line',
  statusHttp: 'status-http',
  statusBytes: 'status-bytes',
  statusEnvelopes: 'status-envelopes',
  statusElapsed: 'status-elapsed',
  statusRate: 'status-rate',
  statusIdle: 'status-idle',
  stopButton: 'stop-button',
  saveButton: 'save-recording',
  exportMenu: 'export-menu',
  copyCurl: 'copy-curl',
  replayButton: 'replay-button',
  sessionFailure: 'session-failure',

  // Connect view
  connectView: 'connect-view',
  presetDemo: 'preset-demo',
  presetUpstream: 'preset-upstream',
  demoScenario: 'demo-scenario',
  demoFormat: 'demo-format',
  agentType: 'agent-type',
  connectUrl: 'connect-url',
  connectMethod: 'connect-method',
  headersTable: 'headers-table',
  headerName: 'header-name',
  headerValue: 'header-value',
  headerAdd: 'header-add',
  headerRemove: 'header-remove',
  bodyKind: 'body-kind',
  bodyEditor: 'body-editor',
  formatOverride: 'format-override',
  connectButton: 'connect-button',
  connectError: 'connect-error',
  curlInput: 'curl-input',
  curlApply: 'curl-apply',
  curlError: 'curl-error',
  formCopyCurl: 'form-copy-curl',

  // Timeline
  timelineView: 'timeline-view',
  timelineTable: 'timeline-table',
  timelineRow: 'timeline-row',
  timelineEmpty: 'timeline-empty',
  timelineCount: 'timeline-count',
  modeTable: 'mode-table',
  modeLanes: 'mode-lanes',
  lanesView: 'lanes-view',
  lanesAxisNote: 'lanes-axis-note',
  lane: 'lane',
  filterText: 'filter-text',
  filterAgent: 'filter-agent',
  filterType: 'filter-type',
  filterFinal: 'filter-final',
  filterSeverity: 'filter-severity',
  filterClear: 'filter-clear',
  followButton: 'follow-button',

  // Detail pane
  detailPane: 'detail-pane',
  detailClose: 'detail-close',
  detailTabEnvelope: 'detail-tab-envelope',
  detailTabBytes: 'detail-tab-bytes',
  detailTabFrame: 'detail-tab-frame',
  detailTabBlock: 'detail-tab-block',
  envelopeView: 'envelope-view',
  rawBytes: 'raw-bytes',
  rawText: 'raw-text',
  rawHex: 'raw-hex',
  byteHighlight: 'byte-highlight',
  frameView: 'frame-view',
  chunkList: 'chunk-list',
  blockOfRow: 'block-of-row',
} as const;

export type TestId = (typeof TEST_IDS)[keyof typeof TEST_IDS];
