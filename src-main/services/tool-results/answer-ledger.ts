/**
 * Remembers, per pending set (one `awaiting_frontend_tools` block of one leg), whether its
 * results were sent, so that a double click, a retried IPC call or a second window can never
 * POST them twice: a second POST would run the agent's continuation twice. A set whose send
 * failed before the server took it (refused, 4xx, error frame) may be sent again, but only
 * when the caller says so explicitly.
 */
export type AnswerState = 'no' | 'sending' | 'sent' | 'failed';

export interface AnswerLedger {
  state(key: string): AnswerState;
  /** Claims the set for sending, or throws a message saying why it cannot be sent now. */
  claim(key: string, options: { resend?: boolean }): void;
  settle(key: string, outcome: 'sent' | 'failed', detail?: string): void;
}

export function pendingSetKey(leg: number, block: number): string {
  return `${leg}:${block}`;
}

export function createAnswerLedger(): AnswerLedger {
  const states = new Map<string, { state: AnswerState; detail?: string }>();
  return {
    state: (key) => states.get(key)?.state ?? 'no',
    claim(key, options) {
      const current = states.get(key);
      if (current?.state === 'sending')
        throw new Error('These tool results are being sent already; wait for the continuation.');
      if (current?.state === 'sent')
        throw new Error(
          `These tool results were already sent${current.detail ? ` (${current.detail})` : ''}; sending them again would run the continuation twice.`,
        );
      if (current?.state === 'failed' && options.resend !== true) {
        throw new Error(
          `Sending these tool results failed before${current.detail ? ` (${current.detail})` : ''}; confirm to send them again.`,
        );
      }
      states.set(key, { state: 'sending' });
      return;
    },
    settle(key, outcome, detail) {
      states.set(key, detail === undefined ? { state: outcome } : { state: outcome, detail });
    },
  };
}
