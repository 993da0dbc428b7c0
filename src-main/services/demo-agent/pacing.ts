import type { Step } from './script';

/** Waits `ms` milliseconds; injected so tests can record or skip the waits. */
export type Delay = (ms: number) => Promise<void>;

export const sleep: Delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `base` plus up to `spread` ms of seeded jitter, rounded to whole milliseconds. */
const jitter = (random: () => number, base: number, spread: number): number => Math.round(base + spread * random());

/**
 * How long a real agent takes before each step: time to first token before a message,
 * tens of milliseconds between deltas, the server or client tool's execution time before
 * its result. The jitter comes from a seeded generator so realistic runs are reproducible.
 */
export function realisticDelayMs(step: Step, random: () => number): number {
  switch (step.kind) {
    case 'api': {
      const event = step.event;
      switch (event.type) {
        case 'message_start':
          return jitter(random, 300, 400);
        case 'content_block_start':
          // A server tool result arrives once Anthropic has run the tool.
          return event.block.type.endsWith('_tool_result') ? jitter(random, 600, 900) : jitter(random, 10, 20);
        case 'content_block_delta':
          return event.delta.type === 'input_json_delta'
            ? jitter(random, 8, 12)
            : event.delta.type === 'signature_delta'
              ? 5
              : jitter(random, 25, 45);
        default:
          return jitter(random, 5, 10);
      }
    }
    case 'meta_init':
      return 30;
    case 'tool_result':
      return jitter(random, 250, 500);
    case 'error_frame':
      return 300;
    case 'wire':
      return 40;
    case 'cut':
      return 100;
    default:
      return 15;
  }
}
