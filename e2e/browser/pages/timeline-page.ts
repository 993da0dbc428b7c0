import { expect, type Locator, type Page } from '@playwright/test';
import { TEST_IDS } from '../../../src-renderer/testids';
import { numberIn } from './app-page';

export type DetailTab = 'envelope' | 'bytes' | 'frame' | 'block';

const DETAIL_TABS: Record<DetailTab, string> = {
  envelope: TEST_IDS.detailTabEnvelope,
  bytes: TEST_IDS.detailTabBytes,
  frame: TEST_IDS.detailTabFrame,
  block: TEST_IDS.detailTabBlock,
};

/** In-page: the seqs of the timeline rows inside the table's viewport (below its sticky header). */
const SEQS_ON_SCREEN = `() => {
  const table = document.querySelector('[data-testid="${TEST_IDS.timelineTable}"]');
  if (!table) return [];
  const header = table.querySelector('[role="row"]:not([data-seq])');
  const top = (header || table).getBoundingClientRect().bottom;
  const bottom = table.getBoundingClientRect().bottom;
  return [...table.querySelectorAll('[data-seq]')]
    .filter((row) => { const r = row.getBoundingClientRect(); return r.bottom > top && r.top < bottom; })
    .map((row) => Number(row.dataset.seq))
    .sort((a, b) => a - b);
}`;

/**
 * The timeline: the virtualized envelope table (only rows in view exist in the DOM, each
 * `timeline-row-<seq>`), the lanes view (one lane per agent) and the detail pane with the
 * selected row's envelope, raw bytes, frame and chunks, and block.
 */
export class TimelinePage {
  readonly view: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly count: Locator;
  readonly modeTable: Locator;
  readonly modeLanes: Locator;
  readonly lanesView: Locator;
  readonly lanes: Locator;
  readonly filterText: Locator;
  readonly filterCompletions: Locator;
  readonly filterError: Locator;
  /** The agent filter's choices: one per agent the session has shown so far. */
  readonly agentOptions: Locator;
  readonly detailPane: Locator;
  readonly envelopeView: Locator;
  readonly rawBytes: Locator;
  readonly rawText: Locator;
  readonly rawHex: Locator;
  readonly byteHighlight: Locator;
  readonly frameView: Locator;
  readonly chunkList: Locator;
  readonly blockOfRow: Locator;
  /** Provider streams: the unified event beside a row's wire type, and its section in the detail pane. */
  readonly rowUnified: Locator;
  readonly unifiedEvent: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId(TEST_IDS.timelineView);
    this.table = page.getByTestId(TEST_IDS.timelineTable);
    this.rows = page.locator(`[data-testid^="${TEST_IDS.timelineRow}-"]`);
    this.empty = page.getByTestId(TEST_IDS.timelineEmpty);
    this.count = page.getByTestId(TEST_IDS.timelineCount);
    this.modeTable = page.getByTestId(TEST_IDS.modeTable);
    this.modeLanes = page.getByTestId(TEST_IDS.modeLanes);
    this.lanesView = page.getByTestId(TEST_IDS.lanesView);
    this.lanes = page.getByTestId(TEST_IDS.lane);
    this.filterText = page.getByTestId(TEST_IDS.filterText);
    this.filterCompletions = page.getByTestId(TEST_IDS.filterCompletions);
    this.filterError = page.getByTestId(TEST_IDS.filterError);
    this.agentOptions = page.getByTestId(`${TEST_IDS.filterAgent}-option`);
    this.detailPane = page.getByTestId(TEST_IDS.detailPane);
    this.envelopeView = page.getByTestId(TEST_IDS.envelopeView);
    this.rawBytes = page.getByTestId(TEST_IDS.rawBytes);
    this.rawText = page.getByTestId(TEST_IDS.rawText);
    this.rawHex = page.getByTestId(TEST_IDS.rawHex);
    this.byteHighlight = page.getByTestId(TEST_IDS.byteHighlight);
    this.frameView = page.getByTestId(TEST_IDS.frameView);
    this.chunkList = page.getByTestId(TEST_IDS.chunkList);
    this.blockOfRow = page.getByTestId(TEST_IDS.blockOfRow);
    this.rowUnified = page.getByTestId(TEST_IDS.rowUnified);
    this.unifiedEvent = page.getByTestId(TEST_IDS.unifiedEvent);
  }

  row(seq: number): Locator {
    return this.page.getByTestId(`${TEST_IDS.timelineRow}-${seq}`);
  }

  /** The rows currently selected (one) or highlighted with a block. */
  selectedRow(): Locator {
    return this.rows.and(this.page.locator('[aria-selected="true"]'));
  }

  /** The seqs of the rows the user can see: inside the table's scrolled viewport, below its header. */
  async seqsOnScreen(): Promise<number[]> {
    return this.page.evaluate<number[]>(`(${SEQS_ON_SCREEN})()`);
  }

  /**
   * From now on, at every animation frame, notes how many rows the table holds
   * (`aria-rowcount`, less the header row), how many of them are on screen and whether the session state says it
   * is streaming; `framesWatched()` returns the notes.
   */
  async watchFrames(): Promise<void> {
    await this.page.evaluate(`(() => {
      const seqsOnScreen = ${SEQS_ON_SCREEN};
      const frames = (window.__framesWatched = []);
      const look = () => {
        const table = document.querySelector('[data-testid="${TEST_IDS.timelineTable}"]');
        const state = document.querySelector('[data-testid="${TEST_IDS.sessionState}"]');
        if (table && state) {
          frames.push({ rows: Number(table.getAttribute('aria-rowcount')) - 1, onScreen: seqsOnScreen().length, streaming: /streaming/.test(state.textContent || '') });
        }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })()`);
  }

  async framesWatched(): Promise<{ rows: number; onScreen: number; streaming: boolean }[]> {
    return this.page.evaluate<{ rows: number; onScreen: number; streaming: boolean }[]>('window.__framesWatched');
  }

  /** The total envelope count the filter bar shows. */
  async total(): Promise<number> {
    const text = await this.count.innerText();
    // "12 of 173 envelopes" while a filter is on: the total is the second number.
    const of = /of\s+([\d,]+)/.exec(text);
    return of?.[1] ? numberIn(of[1]) : numberIn(text);
  }

  async expectTotalAtLeast(n: number, timeout = 30_000): Promise<void> {
    await expect.poll(() => this.total(), { timeout }).toBeGreaterThanOrEqual(n);
  }

  /**
   * Types a filter expression into the box (replacing what it held) and leaves the box, which
   * closes the completion list; the filter applies after the typing pause.
   */
  async filter(expression: string): Promise<void> {
    await this.filterText.fill(expression);
    await this.filterText.blur();
    await expect(this.filterCompletions).toHaveCount(0);
  }

  /**
   * Where the envelope count sits: how many lines it takes (its height over its line height),
   * whether it is on the filter box's line (their heights overlap), and how many rows the filter
   * bar wrapped into (its height over the box's, rounded).
   */
  async countLayout(): Promise<{ lines: number; besideBox: boolean; barRows: number; boxWidth: number }> {
    const box = await this.filterText.boundingBox();
    const bar = await this.filterText.locator('xpath=ancestor::*[contains(@class, "filter-bar")]').boundingBox();
    const count = await this.count.boundingBox();
    const lineHeight = await this.count.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    if (!box || !bar || !count) throw new Error('The filter bar is not on screen.');
    return {
      lines: count.height / lineHeight,
      besideBox: count.y < box.y + box.height && count.y + count.height > box.y,
      barRows: Math.round(bar.height / box.height),
      boxWidth: box.width,
    };
  }

  /** The count the filter bar shows while a filter is on: "12 of 173 envelopes" → 12. */
  async visibleCount(): Promise<number> {
    return numberIn(await this.count.innerText());
  }

  async showLanes(): Promise<void> {
    await this.modeLanes.click();
    await expect(this.lanesView).toBeVisible();
  }

  async showTable(): Promise<void> {
    await this.modeTable.click();
    await expect(this.table).toBeVisible();
  }

  /** Each lane's agent uuid, name and envelope count (a lane label reads "name count"), in display order. */
  async laneCounts(): Promise<{ agent: string; name: string; count: number }[]> {
    const lanes = await this.lanes.all();
    return Promise.all(
      lanes.map(async (lane) => {
        const text = (await lane.innerText()).trim();
        const count = /([\d,]+)$/.exec(text)?.[1] ?? '';
        return {
          agent: (await lane.getAttribute('data-agent')) ?? '',
          name: text.slice(0, text.length - count.length).trim(),
          count: count ? numberIn(count) : 0,
        };
      }),
    );
  }

  async detailTab(tab: DetailTab): Promise<void> {
    await this.page.getByTestId(DETAIL_TABS[tab]).click();
    await expect(this.page.getByTestId(DETAIL_TABS[tab])).toHaveAttribute('aria-selected', 'true');
  }

  async select(seq: number): Promise<void> {
    await this.row(seq).click();
    await expect(this.row(seq)).toHaveAttribute('aria-selected', 'true');
  }
}
