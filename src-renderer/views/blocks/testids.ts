/**
 * data-testid values of the blocks view and the content components it shares with other
 * views. A block card is `BLOCK_IDS.block` with its id in `data-block-id`: no id is another
 * id plus a suffix, so exact matches never pick up a card's header or body.
 */
export const BLOCK_IDS = {
  view: 'blocks-view',
  empty: 'blocks-empty',
  toolbar: 'blocks-toolbar',
  agentFilter: 'blocks-agent-filter',
  expandThinking: 'blocks-expand-thinking',
  count: 'blocks-count',
  thread: 'agent-thread',
  threadHeader: 'agent-thread-header',
  threadToggle: 'agent-thread-toggle',
  block: 'block',
  blockHeader: 'block-header',
  blockLive: 'block-live',
  blockReveal: 'block-reveal',
  blockToggle: 'block-toggle',
  blockBody: 'block-body',
  markdown: 'block-markdown',
  citations: 'block-citations',
  citation: 'block-citation',
  toolArgs: 'tool-args',
  toolLink: 'tool-link',
  toolResult: 'tool-result',
  imageInline: 'image-inline',
  imageRemote: 'image-remote',
  externalLink: 'external-link',
  metaJson: 'meta-json',
  metaFiles: 'meta-files',
  errorBlock: 'error-block',
  awaitingBlock: 'awaiting-block',
  legDivider: 'leg-divider',
} as const;
