/**
 * data-testid values of the frontend-tools prompt. A pending tool's editor is `TOOL_IDS.tool`
 * with its tool_use_id in `data-tool-use-id` (so it is not confused with `pending-tool-message`).
 * Quick answers take their id (a result's content, or approve / deny): `${TOOL_IDS.quickAnswer}-${id}`.
 */
export const TOOL_IDS = {
  prompt: 'tools-prompt',
  tool: 'pending-tool',
  toolMessage: 'pending-tool-message',
  toolInput: 'pending-tool-input',
  modeText: 'tool-mode-text',
  modeJson: 'tool-mode-json',
  resultText: 'tool-result-text',
  isError: 'tool-is-error',
  quickAnswer: 'tool-quick-answer',
  approval: 'pending-tool-approval',
  noCall: 'tools-no-call',
  submit: 'tools-submit',
  state: 'tools-state',
  advanced: 'tools-advanced',
  path: 'tools-path',
  extraBody: 'tools-extra-body',
  autoAnswerBar: 'auto-answer-bar',
  autoAnswerToggle: 'auto-answer-toggle',
  autoAnswerEdit: 'auto-answer-edit',
  autoAnswerRules: 'auto-answer-rules',
  autoAnswerRule: 'auto-answer-rule',
  autoAnswerAdd: 'auto-answer-add',
  replayNote: 'tools-replay-note',
  fileNotice: 'tools-file-notice',
  fileReplay: 'tools-file-replay',
} as const;
