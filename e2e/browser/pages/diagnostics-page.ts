import { expect, type Locator, type Page } from '@playwright/test';
import { DIAGNOSTIC_IDS } from '../../../src-renderer/views/diagnostics/testids';
import { numberIn } from './app-page';

/** The diagnostics view: findings grouped by rule (`diagnostic-group-<rule>`) and the chunk charts. */
export class DiagnosticsPage {
  readonly view: Locator;
  readonly empty: Locator;
  readonly summary: Locator;
  readonly groups: Locator;
  readonly charts: Locator;
  readonly frameSizeChart: Locator;
  readonly overheadChart: Locator;
  readonly findings: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId(DIAGNOSTIC_IDS.view);
    this.empty = page.getByTestId(DIAGNOSTIC_IDS.empty);
    this.summary = page.getByTestId(DIAGNOSTIC_IDS.summary);
    this.groups = page.locator(`[data-testid^="${DIAGNOSTIC_IDS.group}-"]`);
    this.charts = page.getByTestId(DIAGNOSTIC_IDS.charts);
    this.frameSizeChart = page.getByTestId(DIAGNOSTIC_IDS.chartFrameSizes);
    this.overheadChart = page.getByTestId(DIAGNOSTIC_IDS.chartOverhead);
    this.findings = page.getByTestId(DIAGNOSTIC_IDS.finding);
  }

  group(rule: string): Locator {
    return this.page.getByTestId(`${DIAGNOSTIC_IDS.group}-${rule}`);
  }

  /**
   * Clicks the Diagnostics tab and says what the first chart's room (the frame sizes) shows one
   * frame later: the chart drawn, its room sized and saying "drawing…" (ChartsPlaceholder,
   * ChartFrame), or nothing (empty space), with the height it takes.
   */
  async firstChartOneFrameAfter(tab: Locator): Promise<{ shows: 'chart' | 'placeholder' | 'nothing'; height: number }> {
    const handle = await tab.elementHandle();
    if (!handle) throw new Error('No tab to click');
    return this.page.evaluate(async (tab) => {
      (tab as HTMLElement).click();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const card = document.querySelector('.charts-pane .chart-card');
      const chart = card?.querySelector('svg.recharts-surface');
      if (chart) return { shows: 'chart' as const, height: chart.getBoundingClientRect().height };
      const drawing = card?.querySelector<HTMLElement>('.chart-drawing');
      return drawing?.checkVisibility() && drawing.innerText.trim() !== ''
        ? { shows: 'placeholder' as const, height: drawing.getBoundingClientRect().height }
        : { shows: 'nothing' as const, height: 0 };
    }, handle);
  }

  /** The rules listed, in display order. */
  async rules(): Promise<string[]> {
    return this.groups.evaluateAll((groups) => groups.map((g) => g.getAttribute('data-rule') ?? ''));
  }

  /** The finding count a rule's header shows. */
  async countOf(rule: string): Promise<number> {
    // The header reads "rule-id  Title  count"; titles may hold numbers too, the count comes last.
    const header = (await this.group(rule).getByTestId(DIAGNOSTIC_IDS.groupHeader).innerText()).trim();
    const count = /(\d[\d,]*)$/.exec(header)?.[1];
    if (count === undefined) throw new Error(`No finding count in the header of ${rule}: “${header}”`);
    return numberIn(count);
  }

  /**
   * Opens a rule's group (idempotent) and returns its findings. The view opens the worst group
   * by itself once the findings arrive, which may toggle it under a click: retried until open.
   */
  async expand(rule: string): Promise<Locator> {
    const header = this.group(rule).getByTestId(DIAGNOSTIC_IDS.groupHeader);
    await expect(async () => {
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      await expect(header).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
    }).toPass();
    return this.group(rule).getByTestId(DIAGNOSTIC_IDS.finding);
  }
}
