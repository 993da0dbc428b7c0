import { expect, type Locator, type Page } from '@playwright/test';
import { BLOCK_IDS } from '../../../src-renderer/views/blocks/testids';

export interface BlockCounts {
  readonly blocks: number;
  readonly agents: number;
  readonly live: number;
}

/**
 * The blocks view: one thread per root agent with sub-agents' threads nested inside, each
 * block a card carrying its id, kind and status (`data-block-id`, `data-kind`, `data-status`).
 */
export class BlocksPage {
  readonly view: Locator;
  readonly empty: Locator;
  readonly count: Locator;
  readonly threads: Locator;
  readonly blocks: Locator;
  readonly liveBadges: Locator;
  readonly errorBlocks: Locator;
  readonly awaitingBlocks: Locator;
  readonly citations: Locator;
  readonly legDividers: Locator;
  readonly segments: Locator;
  readonly inlineMode: Locator;
  readonly inlineTools: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId(BLOCK_IDS.view);
    this.empty = page.getByTestId(BLOCK_IDS.empty);
    this.count = page.getByTestId(BLOCK_IDS.count);
    this.threads = page.getByTestId(BLOCK_IDS.thread);
    this.blocks = page.getByTestId(BLOCK_IDS.block);
    this.liveBadges = page.getByTestId(BLOCK_IDS.blockLive);
    this.errorBlocks = page.getByTestId(BLOCK_IDS.errorBlock);
    this.awaitingBlocks = page.getByTestId(BLOCK_IDS.awaitingBlock);
    this.citations = page.getByTestId(BLOCK_IDS.citation);
    this.legDividers = page.getByTestId(BLOCK_IDS.legDivider);
    this.segments = page.getByTestId(BLOCK_IDS.segment);
    this.inlineMode = page.getByTestId(BLOCK_IDS.inlineMode);
    this.inlineTools = page.getByTestId(BLOCK_IDS.inlineTools);
  }

  /** The segments shown in a block card (or in the whole view), of one type when given. */
  segmentsOf(within: Locator | Page = this.page, type?: string): Locator {
    const all = within.getByTestId(BLOCK_IDS.segment);
    return type === undefined ? all : all.and(this.page.locator(`[data-type="${type}"]`));
  }

  /** Every segment's type and completeness in document order. */
  async segmentTypes(within: Locator | Page = this.page): Promise<{ type: string; complete: boolean }[]> {
    return within.getByTestId(BLOCK_IDS.segment).evaluateAll((nodes) =>
      nodes.map((n) => ({
        type: n.getAttribute('data-type') ?? '',
        complete: n.getAttribute('data-complete') === 'true',
      })),
    );
  }

  /** Switch a text block card between its segments and its raw text. */
  async showRaw(card: Locator, raw: boolean): Promise<void> {
    await card
      .getByTestId(BLOCK_IDS.textView)
      .getByRole('radio', { name: raw ? 'Raw text' : /Segments/ })
      .click();
  }

  rawText(card: Locator): Locator {
    return card.getByTestId(BLOCK_IDS.rawText);
  }

  segmentDetail(card: Locator, part: 'name' | 'path' | 'params' | 'code'): Locator {
    const ids = {
      name: BLOCK_IDS.segmentName,
      path: BLOCK_IDS.segmentPath,
      params: BLOCK_IDS.segmentParams,
      code: BLOCK_IDS.segmentCode,
    } as const;
    return card.getByTestId(ids[part]);
  }

  thread(agent: string): Locator {
    return this.page.locator(`[data-testid="${BLOCK_IDS.thread}"][data-agent="${agent}"]`);
  }

  /** Threads shown inside another thread: sub-agents nested where they were spawned. */
  nestedThreads(): Locator {
    return this.threads.locator(`[data-testid="${BLOCK_IDS.thread}"]`);
  }

  ofKind(kind: string, within: Locator | Page = this.page): Locator {
    return within.getByTestId(BLOCK_IDS.block).and(this.page.locator(`[data-kind="${kind}"]`));
  }

  /** Expects a block of each kind to be shown. */
  async expectKinds(kinds: readonly string[]): Promise<void> {
    for (const kind of kinds) await expect(this.ofKind(kind).first(), `a ${kind} block`).toBeVisible();
  }

  /** The summary of the (first) message block, scrolled into view: its facts (usage, status, model). */
  async messageFacts(): Promise<Locator> {
    const message = this.ofKind('message').first();
    await message.scrollIntoViewIfNeeded();
    return message.getByTestId(BLOCK_IDS.metaJson);
  }

  /** "12 blocks · 3 agents · 2 live". */
  async counts(): Promise<BlockCounts> {
    // Before the view's first fetch answers there is nothing to count yet.
    await expect(this.count).toHaveAttribute('data-loaded', 'true');
    const text = await this.count.innerText();
    const number = (pattern: RegExp): number => Number((pattern.exec(text)?.[1] ?? '0').replaceAll(',', ''));
    return { blocks: number(/([\d,]+) blocks?/), agents: number(/([\d,]+) agents?/), live: number(/([\d,]+) live/) };
  }

  /** Every block's kind and status, in document order. */
  async kindsAndStatuses(): Promise<{ kind: string; status: string }[]> {
    return this.blocks.evaluateAll((cards) =>
      cards.map((card) => ({
        kind: card.getAttribute('data-kind') ?? '',
        status: card.getAttribute('data-status') ?? '',
      })),
    );
  }

  async expectNoneLive(timeout = 30_000): Promise<void> {
    await expect(this.liveBadges).toHaveCount(0, { timeout });
    await expect.poll(async () => (await this.counts()).live, { timeout }).toBe(0);
  }
}
