import { describe, expect, test } from 'vitest';
import { createDiffRunner, type ComparePair } from './diff-runner';

/** A compute function whose calls the test settles by hand, and a log of what the runner reported. */
function harness() {
  const calls: { pair: ComparePair; resolve: (result: string) => void; reject: (error: Error) => void }[] = [];
  const log: string[] = [];
  const runner = createDiffRunner(
    (pair) =>
      new Promise<string>((resolve, reject) => {
        calls.push({ pair, resolve, reject });
      }),
    {
      onBusy: (busy) => log.push(busy ? 'busy' : 'idle'),
      onResult: (pair, result) => log.push(`result ${pair.left}/${pair.right}: ${result}`),
      onError: (pair, error) =>
        log.push(`error ${pair.left}/${pair.right}: ${error instanceof Error ? error.message : String(error)}`),
    },
  );
  const call = (index: number) => {
    const found = calls[index];
    if (!found) throw new Error(`no call ${index}: ${calls.length} made`);
    return found;
  };
  return { runner, calls, call, log };
}

const pair = (left: string, right: string, flattenAgents = false): ComparePair => ({ left, right, flattenAgents });
/** Lets the promise callbacks run. */
const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('createDiffRunner', () => {
  test('compares a pair once and reports busy around it', async () => {
    const { runner, calls, call, log } = harness();
    runner.want(pair('a', 'b'));
    runner.want(pair('a', 'b'));
    expect(calls).toHaveLength(1);
    call(0).resolve('diff ab');
    await settled();
    runner.want(pair('a', 'b'));
    expect(calls).toHaveLength(1);
    expect(log).toEqual(['busy', 'result a/b: diff ab', 'idle']);
  });

  test('regression: a pair picked while a comparison runs is compared when it ends, and the stale result is dropped', async () => {
    const { runner, calls, call, log } = harness();
    runner.want(pair('a', 'b'));
    runner.want(pair('a', 'c'));
    // One comparison at a time: the new pair waits.
    expect(calls).toHaveLength(1);
    call(0).resolve('diff ab');
    await settled();
    expect(calls.map((c) => c.pair)).toEqual([pair('a', 'b'), pair('a', 'c')]);
    call(1).resolve('diff ac');
    await settled();
    expect(log).toEqual(['busy', 'result a/c: diff ac', 'idle']);
  });

  test('only the latest of several pairs picked during a comparison runs next', async () => {
    const { runner, calls, call, log } = harness();
    runner.want(pair('a', 'b'));
    runner.want(pair('a', 'c'));
    runner.want(pair('a', 'd'));
    call(0).resolve('diff ab');
    await settled();
    expect(calls.map((c) => c.pair.right)).toEqual(['b', 'd']);
    call(1).resolve('diff ad');
    await settled();
    expect(log).toEqual(['busy', 'result a/d: diff ad', 'idle']);
  });

  test('going back to the pair already shown drops the running result and compares nothing more', async () => {
    const { runner, calls, call, log } = harness();
    runner.want(pair('a', 'b'));
    call(0).resolve('diff ab');
    await settled();
    runner.want(pair('a', 'c'));
    runner.want(pair('a', 'b'));
    call(1).resolve('diff ac');
    await settled();
    expect(calls).toHaveLength(2);
    expect(log).toEqual(['busy', 'result a/b: diff ab', 'idle', 'busy', 'idle']);
  });

  test('the flatten option is part of the pair', async () => {
    const { runner, calls, call } = harness();
    runner.want(pair('a', 'b'));
    call(0).resolve('diff');
    await settled();
    runner.want(pair('a', 'b', true));
    expect(calls.map((c) => c.pair.flattenAgents)).toEqual([false, true]);
  });

  test('"again" compares the pair already compared', async () => {
    const { runner, calls, call } = harness();
    runner.want(pair('a', 'b'));
    call(0).resolve('one');
    await settled();
    runner.want(pair('a', 'b'), { again: true });
    expect(calls).toHaveLength(2);
  });

  test('a failure is reported for the wanted pair and not retried by itself; a stale failure is dropped', async () => {
    const { runner, calls, call, log } = harness();
    runner.want(pair('a', 'b'));
    call(0).reject(new Error('boom'));
    await settled();
    runner.want(pair('a', 'b'));
    expect(calls).toHaveLength(1);
    runner.want(pair('a', 'c'));
    runner.want(pair('a', 'd'));
    call(1).reject(new Error('stale'));
    await settled();
    call(2).resolve('diff ad');
    await settled();
    expect(log).toEqual(['busy', 'error a/b: boom', 'idle', 'busy', 'result a/d: diff ad', 'idle']);
  });

  test('wanting no pair drops the running result', async () => {
    const { runner, call, log } = harness();
    runner.want(pair('a', 'b'));
    runner.want(null);
    call(0).resolve('diff ab');
    await settled();
    expect(log).toEqual(['busy', 'idle']);
  });

  test('a compute function that throws is a failure, not a runner stuck busy', async () => {
    const log: string[] = [];
    let fail = true;
    const runner = createDiffRunner(
      () => {
        if (fail) throw new Error('no service');
        return Promise.resolve('ok');
      },
      {
        onBusy: (b) => log.push(String(b)),
        onResult: (_p, r) => log.push(r),
        onError: (_p, e) => log.push(e instanceof Error ? e.message : '?'),
      },
    );
    runner.want(pair('a', 'b'));
    await settled();
    fail = false;
    runner.want(pair('a', 'c'));
    await settled();
    expect(log).toEqual(['true', 'no service', 'false', 'true', 'ok', 'false']);
  });
});
