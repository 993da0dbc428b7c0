import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../store/session-store';
import { BreakpointWatch } from './replay-breakpoints';

const text = (agent: string, type = 'text') => `data: ${JSON.stringify({ type, agent, final: false, delta: 'x' })}\n\n`;

function sessionWith(events: string[]) {
  const data = createSessionStore({ id: 's', title: 't', source: { kind: 'replay', of: 'o' }, createdAt: 0 });
  const leg = data.openLeg('file', null, 0).index;
  const push = (more: string[]) => data.push(leg, new TextEncoder().encode(more.join('')), 0);
  push(events);
  return { data, push };
}

describe('BreakpointWatch', () => {
  it('gives the first envelope a breakpoint matches among those delivered since it last looked, once per run of matches', () => {
    const { data, push } = sessionWith([text('a')]);
    const watch = new BreakpointWatch();
    watch.set([{ kind: 'type', type: 'thinking' }], data);
    push([text('a'), text('a', 'thinking'), text('a', 'thinking')]);
    expect(watch.look(data)).toMatchObject({ envelope: 2, breakpoint: { kind: 'type', type: 'thinking' } });
    expect(watch.look(data)).toBeNull();
    push([text('a', 'thinking'), text('a'), text('a', 'thinking')]);
    expect(watch.look(data)?.envelope).toBe(6);
  });

  it('without breakpoints only moves its marks: breakpoints set later see only what comes after', () => {
    const { data, push } = sessionWith([text('a', 'thinking')]);
    const watch = new BreakpointWatch();
    expect(watch.look(data)).toBeNull();
    watch.set([{ kind: 'agent', agent: 'b' }], data);
    expect(watch.look(data)).toBeNull();
    push([text('b')]);
    expect(watch.look(data)?.envelope).toBe(1);
  });

  it('drops the hit it paused at when that breakpoint is removed, and forgets everything on reset', () => {
    const { data } = sessionWith([]);
    const watch = new BreakpointWatch();
    const breakpoint = { kind: 'type' as const, type: 'text' };
    watch.set([breakpoint], data);
    watch.hit = { breakpoint, envelope: 0 };
    watch.set([breakpoint], data);
    expect(watch.hit).toBeDefined();
    watch.set([], data);
    expect(watch.hit).toBeUndefined();
    watch.hit = { breakpoint, envelope: 0 };
    watch.reset();
    expect(watch.hit).toBeUndefined();
  });
});
