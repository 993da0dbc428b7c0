/**
 * data-testid values of the diff view. Rows are `DIFF_IDS.row` with their index in
 * `data-row` (a prefix never doubles as another id).
 */
export const DIFF_IDS = {
  view: 'diff-view',
  empty: 'diff-empty',
  left: 'diff-left',
  right: 'diff-right',
  swap: 'diff-swap',
  compare: 'diff-compare',
  flatten: 'diff-flatten',
  export: 'diff-export',
  /** Opening a diff saved with Export JSON, and the line that says one is shown. */
  openExport: 'diff-open-export',
  openExportInput: 'diff-open-export-input',
  exported: 'diff-exported',
  closeExport: 'diff-close-export',
  exportError: 'diff-export-error',
  /** The result; `data-stale` is true while it is not the diff of the pair the pickers show. */
  result: 'diff-result',
  headline: 'diff-headline',
  counts: 'diff-counts',
  count: 'diff-count',
  statusFilter: 'diff-status-filter',
  hideInherent: 'diff-hide-inherent',
  filterText: 'diff-filter-text',
  table: 'diff-table',
  row: 'diff-row',
  tabBlock: 'diff-tab-block',
  tabTranscript: 'diff-tab-transcript',
  tabEnvelopes: 'diff-tab-envelopes',
  blockEditor: 'diff-block-editor',
  transcriptEditor: 'diff-transcript-editor',
  envelopeTable: 'diff-envelope-table',
  envelopeRow: 'diff-envelope-row',
  loading: 'diff-loading',
} as const;
