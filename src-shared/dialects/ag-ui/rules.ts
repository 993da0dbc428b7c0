import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The AG-UI dialect's own rules (docs/diagnostics.md). What AG-UI shares with the provider
 * APIs — content for an item never started, tool arguments that do not parse, a stream
 * without its terminal event — is reported under the provider rules, which name this
 * dialect too. Severities follow the catalogue's principle: `error` where the client loses
 * or corrupts data, `warning` for a deviation that loses nothing, `info` for what the
 * protocol allows or the stream cannot say.
 */
export const AG_UI_RULES = {
  'ag-ui.run-error': {
    severity: 'error',
    layer: 'dialect',
    title: 'The run ended with RUN_ERROR: the agent reported its own failure',
    dialects: ['ag-ui'],
  },
  'ag-ui.event-outside-run': {
    severity: 'error',
    layer: 'dialect',
    title:
      'Event outside a run: before the first RUN_STARTED, or after the run closed with RUN_FINISHED or RUN_ERROR (a client rejects it)',
    dialects: ['ag-ui'],
  },
  'ag-ui.state-delta-failed': {
    severity: 'error',
    layer: 'dialect',
    title:
      'STATE_DELTA does not apply to the current state (a failing test, a missing path, a malformed patch): the state stays as it was',
    dialects: ['ag-ui'],
  },
  'ag-ui.delta-before-snapshot': {
    severity: 'info',
    layer: 'dialect',
    title:
      'STATE_DELTA before any STATE_SNAPSHOT: it amends the request’s state, which the stream does not carry, so the state shown starts from {}',
    dialects: ['ag-ui'],
  },
  'ag-ui.unbalanced': {
    severity: 'warning',
    layer: 'dialect',
    title:
      'A step or reasoning span finished that was never started, started again while open, or still open when its run ended',
    dialects: ['ag-ui'],
  },
  'ag-ui.pending-call-unknown': {
    severity: 'warning',
    layer: 'dialect',
    title:
      'RUN_FINISHED names a call in pendingToolCallIds that the run left no unanswered call of: the frontend has nothing to run for it',
    dialects: ['ag-ui'],
  },
} as const satisfies Record<string, RuleInfo>;
