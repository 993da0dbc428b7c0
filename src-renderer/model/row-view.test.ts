import { describe, expect, it } from 'vitest';
import { row } from '../testing/fake-service';
import { labelAgents } from './agents';
import { previewTitle, rowCells, typeCategory } from './row-view';

describe('row cells', () => {
  const labels = labelAgents([{ uuid: 'agent-a', parent: null, firstEnvelope: 0 }]);

  it('formats a row: time since start, gap to the previous envelope, agent, bytes, id and name', () => {
    const cells = rowCells(
      row(3, { receivedAt: 2534, toolId: 'toolu_1', name: 'web_search', bytes: 1530, final: true }),
      { sessionStart: 1000, previousReceivedAt: 2500, labels },
    );
    expect(cells).toMatchObject({
      seq: '3',
      time: '1.534',
      gap: '+34 ms',
      type: 'text',
      final: true,
      bytes: '1.5 kB',
      idName: 'web_search · toolu_1',
    });
    expect(cells.agent.name).toBe('main');
  });

  it('says no time in Time and Δ for a session without receive times (never 0.000 / +0)', () => {
    const untimed = { sessionStart: 0, labels, timed: false };
    expect(rowCells(row(3, { receivedAt: 0 }), { ...untimed, previousReceivedAt: 0 })).toMatchObject({
      time: '—',
      gap: '—',
    });
    expect(rowCells(row(0, { receivedAt: 0 }), { ...untimed, previousReceivedAt: undefined }).gap).toBe('');
    // Must not: a timed session's first rows at the start are 0.000 and +0 ms, as they arrived.
    expect(rowCells(row(1, { receivedAt: 0 }), { ...untimed, timed: true, previousReceivedAt: 0 })).toMatchObject({
      time: '0.000',
      gap: '+0',
    });
  });

  it('leaves the gap empty for the first row and falls back for unknown agents', () => {
    const cells = rowCells(row(0, { agent: 'zzzzzzzz-unknown' }), {
      sessionStart: 1000,
      previousReceivedAt: undefined,
      labels,
    });
    expect(cells.gap).toBe('');
    expect(cells.agent.name).toBe('zzzzzzzz-un…');
  });

  it('says when the preview was cut', () => {
    const cells = rowCells(row(0, { preview: 'abc', deltaLength: 4000 }), {
      sessionStart: 0,
      previousReceivedAt: undefined,
      labels,
    });
    expect(cells.previewCut).toBe(true);
    expect(previewTitle(cells)).toContain('4,000 characters');
  });

  it.each([
    ['text', undefined, 'text'],
    ['citation', undefined, 'text'],
    ['thinking', undefined, 'thinking'],
    ['tool_call', undefined, 'tool'],
    ['server_tool_call', undefined, 'tool'],
    ['awaiting_frontend_tools', undefined, 'tool'],
    ['tool_result', undefined, 'result'],
    ['server_tool_result', undefined, 'result'],
    ['tool_result_image', undefined, 'result'],
    ['meta_init', undefined, 'meta'],
    ['error', undefined, 'error'],
    ['error_frame', 'error-frame', 'error'],
    ['', 'done', 'control'],
    ['rollback', undefined, 'other'],
  ] as const)('puts %s (%s) in the %s colour family', (type, control, category) => {
    expect(typeCategory(type, control)).toBe(category);
  });
});
