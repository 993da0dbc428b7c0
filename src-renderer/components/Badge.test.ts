import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SeverityCounts } from './Badge';

const markup = (counts: { error: number; warning: number; info: number }, compact?: boolean): string =>
  renderToStaticMarkup(createElement(SeverityCounts, { counts, ...(compact ? { compact } : {}) }));

describe('severity counts', () => {
  it('one badge per severity found; none when nothing was found', () => {
    expect(markup({ error: 2, warning: 17, info: 0 })).toBe(
      '<span class="severity-counts"><span class="badge badge-error" title="2 errors">2</span><span class="badge badge-warning" title="17 warnings">17</span></span>',
    );
    expect(markup({ error: 0, warning: 0, info: 0 })).toBe('<span class="severity-counts"></span>');
  });

  it('compact (the sidebar): the total in the colour of the worst severity, each count in its tooltip', () => {
    expect(markup({ error: 2, warning: 17, info: 1 }, true)).toBe(
      '<span class="severity-counts"><span class="badge badge-error" title="2 errors, 17 warnings, 1 note">20</span></span>',
    );
    expect(markup({ error: 0, warning: 25_690, info: 1 }, true)).toContain(
      'class="badge badge-warning" title="25,690 warnings, 1 note">25,691<',
    );
    expect(markup({ error: 0, warning: 0, info: 3 }, true)).toContain('class="badge badge-info" title="3 notes">3<');
    expect(markup({ error: 0, warning: 0, info: 0 }, true)).toBe('');
  });
});
