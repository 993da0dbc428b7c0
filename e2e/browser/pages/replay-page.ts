import { expect, type Locator, type Page } from '@playwright/test';
import { REPLAY_IDS } from '../../../src-renderer/views/replay/testids';

/** The replay transport in the session header of a replay session. */
export class ReplayPage {
  readonly controls: Locator;
  readonly playButton: Locator;
  readonly pauseButton: Locator;
  readonly stepButton: Locator;
  readonly speed: Locator;
  readonly seek: Locator;
  readonly position: Locator;
  readonly finished: Locator;
  readonly restartButton: Locator;

  constructor(readonly page: Page) {
    this.controls = page.getByTestId(REPLAY_IDS.controls);
    this.playButton = page.getByTestId(REPLAY_IDS.play);
    this.pauseButton = page.getByTestId(REPLAY_IDS.pause);
    this.stepButton = page.getByTestId(REPLAY_IDS.step);
    this.speed = page.getByTestId(REPLAY_IDS.speed);
    this.seek = page.getByTestId(REPLAY_IDS.seek);
    this.position = page.getByTestId(REPLAY_IDS.position);
    this.finished = page.getByTestId(REPLAY_IDS.finished);
    this.restartButton = page.getByTestId(REPLAY_IDS.restart);
  }

  /** Picks a speed by its label ("×4", "fast"). */
  async setSpeed(label: string): Promise<void> {
    await this.speed.selectOption({ label });
    await expect(this.speed.locator('option:checked')).toHaveText(label);
  }

  /** Envelopes delivered and in the recording, from "12 / 173". */
  async progress(): Promise<{ position: number; total: number }> {
    const text = await this.position.innerText();
    const match = /(\d+)\s*\/\s*(\d+)/.exec(text);
    if (!match) throw new Error(`Not a replay position: “${text}”`);
    return { position: Number(match[1]), total: Number(match[2]) };
  }

  /** The delivered count the transport reports as its own state (not the slider while dragged). */
  async statePosition(): Promise<number> {
    return Number(await this.controls.getAttribute('data-position'));
  }

  /**
   * Leaves the replay paused, wherever it is: pauses it while it plays, and restarts it (the
   * same session, paused at the start) once it has ended. A replay may end between two looks
   * on a loaded machine (a short recording plays in a second), so it looks again until paused.
   */
  async holdStill(): Promise<void> {
    await expect(this.controls).toHaveAttribute('data-position', /\d+/);
    await expect(async () => {
      if (await this.restartButton.isVisible()) await this.restartButton.click({ timeout: 1000 });
      else if (await this.pauseButton.isVisible()) await this.pauseButton.click({ timeout: 1000 });
      await expect(this.controls).toHaveAttribute('data-playing', 'false', { timeout: 1000 });
      await expect(this.playButton).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 60_000 });
  }

  async pause(): Promise<void> {
    await this.pauseButton.click();
    await expect(this.controls).toHaveAttribute('data-playing', 'false');
  }

  async play(): Promise<void> {
    await this.playButton.click();
  }

  /** One step: the next envelope is delivered and the replay stays paused. */
  async step(): Promise<void> {
    await this.stepButton.click();
  }

  /**
   * Moves the seek slider to `delivered` envelopes and lets go (the seek is sent on release),
   * then waits for the replay to report that position.
   */
  async seekTo(delivered: number): Promise<void> {
    await this.seek.fill(String(delivered));
    await this.seek.dispatchEvent('keyup');
    await expect(this.controls).toHaveAttribute('data-position', String(delivered));
  }
}
