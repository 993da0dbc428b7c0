import { expect, type Locator, type Page } from '@playwright/test';
import { DIFF_IDS } from '../../../src-renderer/views/diff/testids';

/** The diff view: two session pickers, the counts headline and the block alignment table. */
export class DiffPage {
  readonly view: Locator;
  readonly empty: Locator;
  readonly left: Locator;
  readonly right: Locator;
  readonly compareButton: Locator;
  readonly result: Locator;
  readonly headline: Locator;
  readonly counts: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly tabEnvelopes: Locator;
  readonly envelopeRows: Locator;
  readonly blockEditor: Locator;
  readonly loading: Locator;
  readonly exportButton: Locator;
  readonly openExportInput: Locator;
  readonly exported: Locator;
  readonly closeExport: Locator;
  readonly exportError: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId(DIFF_IDS.view);
    this.empty = page.getByTestId(DIFF_IDS.empty);
    this.left = page.getByTestId(DIFF_IDS.left);
    this.right = page.getByTestId(DIFF_IDS.right);
    this.compareButton = page.getByTestId(DIFF_IDS.compare);
    this.result = page.getByTestId(DIFF_IDS.result);
    this.headline = page.getByTestId(DIFF_IDS.headline);
    this.counts = page.getByTestId(DIFF_IDS.counts);
    this.table = page.getByTestId(DIFF_IDS.table);
    this.rows = page.getByTestId(DIFF_IDS.row);
    this.tabEnvelopes = page.getByTestId(DIFF_IDS.tabEnvelopes);
    this.envelopeRows = page.getByTestId(DIFF_IDS.envelopeRow);
    this.blockEditor = page.getByTestId(DIFF_IDS.blockEditor);
    this.loading = page.getByTestId(DIFF_IDS.loading);
    this.exportButton = page.getByTestId(DIFF_IDS.export);
    this.openExportInput = page.getByTestId(DIFF_IDS.openExportInput);
    this.exported = page.getByTestId(DIFF_IDS.exported);
    this.closeExport = page.getByTestId(DIFF_IDS.closeExport);
    this.exportError = page.getByTestId(DIFF_IDS.exportError);
  }

  /**
   * Picks the two sessions by their option labels ("title · format · N env", the format only
   * once when the title names it, as demo runs' titles do); the view compares
   * them by itself. Returns once the result shown is the diff of that pair.
   */
  async compare(left: string | RegExp, right: string | RegExp): Promise<void> {
    await this.left.selectOption({ label: await this.optionLabel(this.left, left) });
    await this.right.selectOption({ label: await this.optionLabel(this.right, right) });
    await expect(this.result).toHaveAttribute('data-stale', 'false', { timeout: 20_000 });
    await expect(this.headline).toBeVisible();
  }

  /** The number of block-level differences the headline reports. */
  async differences(): Promise<number> {
    return Number(await this.headline.getAttribute('data-differences'));
  }

  /** Rows of one alignment status (equal, changed, only-left, only-right, …). */
  rowsWithStatus(status: string): Locator {
    return this.rows.and(this.page.locator(`[data-status="${status}"]`));
  }

  private async optionLabel(select: Locator, wanted: string | RegExp): Promise<string> {
    await expect(select).toBeVisible();
    // Options are not rendered boxes: their text content is the label.
    const labels = (await select.locator('option').allTextContents()).map((label) => label.trim());
    const found = labels.find((label) => (typeof wanted === 'string' ? label.includes(wanted) : wanted.test(label)));
    if (found === undefined) throw new Error(`No session matching ${String(wanted)} among: ${labels.join(' | ')}`);
    return found;
  }
}
