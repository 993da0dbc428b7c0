import { expect, type Locator, type Page } from '@playwright/test';
import { TOOL_IDS } from '../../../src-renderer/views/tools/testids';

/** The frontend-tools prompt shown while a run waits on `awaiting_frontend_tools`. */
export class ToolsPage {
  readonly prompt: Locator;
  readonly tools: Locator;
  readonly messages: Locator;
  readonly inputs: Locator;
  readonly submitButton: Locator;
  readonly state: Locator;
  readonly replayNote: Locator;

  constructor(readonly page: Page) {
    this.prompt = page.getByTestId(TOOL_IDS.prompt);
    this.tools = page.getByTestId(TOOL_IDS.tool);
    this.messages = page.getByTestId(TOOL_IDS.toolMessage);
    this.inputs = page.getByTestId(TOOL_IDS.toolInput);
    this.submitButton = page.getByTestId(TOOL_IDS.submit);
    this.state = page.getByTestId(TOOL_IDS.state);
    this.replayNote = page.getByTestId(TOOL_IDS.replayNote);
  }

  tool(toolUseId: string): Locator {
    return this.tools.and(this.page.locator(`[data-tool-use-id="${toolUseId}"]`));
  }

  /**
   * Clicks a quick answer ("yes", "no", "ok"; "approve", "deny") of one pending tool. When the run waits for
   * that tool alone the answer is sent at once; with several, it fills that tool's answer.
   */
  async quickAnswer(toolUseId: string, content: string): Promise<void> {
    await this.tool(toolUseId).getByTestId(`${TOOL_IDS.quickAnswer}-${content}`).click();
  }

  /** Types a tool's answer as text (a call that takes one form of answer, a screenshot, has no mode to choose). */
  async answerText(toolUseId: string, text: string): Promise<void> {
    const tool = this.tool(toolUseId);
    await tool.getByTestId(TOOL_IDS.resultText).waitFor();
    const textMode = tool.getByTestId(TOOL_IDS.modeText);
    if ((await textMode.count()) > 0) await textMode.click();
    await tool.getByTestId(TOOL_IDS.resultText).fill(text);
  }

  /** Answers each tool with its text, sends them, and waits until the run goes on (the prompt goes). */
  async sendTexts(answers: Readonly<Record<string, string>>): Promise<void> {
    for (const [toolUseId, text] of Object.entries(answers)) await this.answerText(toolUseId, text);
    await this.submit();
    await expect(this.prompt).toBeHidden({ timeout: 15_000 });
  }

  async submit(): Promise<void> {
    await expect(this.submitButton).toBeEnabled();
    await this.submitButton.click();
  }
}
