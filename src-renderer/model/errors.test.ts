import { describe, expect, it } from 'vitest';
import { errorMessage, ErrorsModel, MAX_ERRORS } from './errors';

describe('errors', () => {
  it('shows the same error once, with its latest time', () => {
    let now = 1;
    const errors = new ErrorsModel(() => now);
    errors.report('Connect', new Error('refused'), 's1');
    now = 2;
    errors.report('Connect', new Error('refused'), 's1');
    errors.report('Connect', new Error('refused'), 's2');
    expect(errors.store.getSnapshot().map((e) => [e.sessionId, e.at])).toEqual([
      ['s1', 2],
      ['s2', 2],
    ]);
  });

  it('keeps the most recent errors only', () => {
    const errors = new ErrorsModel(() => 0);
    for (let i = 0; i < MAX_ERRORS + 5; i++) errors.report('Load', `problem ${i}`);
    const list = errors.store.getSnapshot();
    expect(list).toHaveLength(MAX_ERRORS);
    expect(list.at(-1)?.message).toBe(`problem ${MAX_ERRORS + 4}`);
  });

  it("lets an action error go when the user moves to another session, and keeps the sessions' own", () => {
    const errors = new ErrorsModel(() => 0);
    errors.report('Open file', new Error('not a recording'));
    errors.report('Send tool results', new Error('refused'), 's1');
    errors.leaveActions();
    expect(errors.store.getSnapshot().map((e) => [e.context, e.sessionId])).toEqual([['Send tool results', 's1']]);
  });

  it.each([
    [new Error('boom'), 'boom'],
    [new TypeError(''), 'TypeError'],
    ['plain text', 'plain text'],
    [{ code: 'E1' }, '{"code":"E1"}'],
    [undefined, 'undefined'],
  ])('turns %j into a message', (error, message) => {
    expect(errorMessage(error)).toBe(message);
  });
});
