import { expect, type Locator, type Page } from '@playwright/test';
import type { Format as DemoFormat } from '../../../src-main/services/demo-agent/script';
import { TEST_IDS } from '../../../src-renderer/testids';

export type { DemoFormat };

/** The connect view: presets, the demo agent's scenario and wire format, the request line. */
export class ConnectPage {
  readonly view: Locator;
  readonly presetDemo: Locator;
  readonly presetUpstream: Locator;
  readonly providerScenario: Locator;
  readonly scenario: Locator;
  readonly format: Locator;
  readonly url: Locator;
  readonly method: Locator;
  readonly connectButton: Locator;
  readonly connectError: Locator;
  readonly bodyEditor: Locator;
  private readonly viewRoot: Locator;
  private readonly sessionState: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId(TEST_IDS.connectView);
    this.presetDemo = page.getByTestId(TEST_IDS.presetDemo);
    this.presetUpstream = page.getByTestId(TEST_IDS.presetUpstream);
    this.providerScenario = page.getByTestId(TEST_IDS.providerScenario);
    this.scenario = page.getByTestId(TEST_IDS.demoScenario);
    this.format = page.getByTestId(TEST_IDS.demoFormat);
    this.url = page.getByTestId(TEST_IDS.connectUrl);
    this.method = page.getByTestId(TEST_IDS.connectMethod);
    this.connectButton = page.getByTestId(TEST_IDS.connectButton);
    this.connectError = page.getByTestId(TEST_IDS.connectError);
    this.bodyEditor = page.getByTestId(TEST_IDS.bodyEditor);
    this.viewRoot = page.getByTestId(TEST_IDS.viewRoot);
    this.sessionState = page.getByTestId(TEST_IDS.sessionState);
  }

  /**
   * Fills the form for one demo-agent run. `pace: 'fast'` asks the demo agent (through its
   * `?pace=` query) to send without its realistic delays, for flows that do not watch timing.
   */
  async chooseDemo({
    scenario,
    format,
    pace = 'realistic',
  }: {
    scenario: string;
    format: DemoFormat;
    pace?: 'fast' | 'realistic';
  }): Promise<void> {
    await expect(this.presetDemo).toBeEnabled();
    await this.presetDemo.click();
    await expect(this.presetDemo).toHaveAttribute('aria-checked', 'true');
    await this.scenario.selectOption(scenario);
    await this.format.selectOption(format);
    if (pace === 'fast') {
      const url = new URL(await this.url.inputValue());
      url.searchParams.set('pace', 'fast');
      await this.url.fill(url.toString());
    }
  }

  /** Fills the form for one of the demo's provider API streams (`/v1/messages`, `/v1/responses`, `/v1/chat/completions`…). */
  async chooseProvider({
    provider,
    scenario,
    pace = 'realistic',
  }: {
    /** The preset's id: the demo's provider table entry (anthropic, openai, openai-chat…). */
    provider: string;
    scenario: string;
    pace?: 'fast' | 'realistic';
  }): Promise<void> {
    const preset = this.presetOf(provider);
    await preset.click();
    await expect(preset).toHaveAttribute('aria-checked', 'true');
    await this.providerScenario.selectOption(scenario);
    if (pace === 'fast') {
      const url = new URL(await this.url.inputValue());
      url.searchParams.set('pace', 'fast');
      await this.url.fill(url.toString());
    }
  }

  /** Runs one of the demo's provider scenarios at its fast pace, and waits for the session's state (as `run`). */
  async runProvider(provider: string, scenario: string, state?: string | RegExp): Promise<void> {
    await this.chooseProvider({ provider, scenario, pace: 'fast' });
    await this.run(state);
  }

  /** The preset of one of the demo's provider APIs, by its id. */
  presetOf(provider: string): Locator {
    return this.page.getByTestId(`${TEST_IDS.providerPreset}-${provider}`);
  }

  async connect(): Promise<void> {
    await this.connectButton.click();
  }

  /**
   * Connects and waits for the timeline the new session opens in, then, when given, for the
   * session's state (AppPage.expectState's text and timeout).
   */
  async run(state?: string | RegExp, timeout = 30_000): Promise<void> {
    await this.connect();
    await expect(this.viewRoot).toHaveAttribute('data-view', 'timeline');
    if (state !== undefined) await expect(this.sessionState).toHaveText(state, { timeout });
  }
}
