import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src-shared/diagnostics/types';
import { DiagnosticStore } from './diagnostic-store';
import { Badges, FindingBadges } from './finding-badges';
import { SpoolFile } from './spool-file';

describe('Badges', () => {
  it('counts findings per key and keeps the worst severity, whatever the order', () => {
    const badges = new Badges();
    badges.add(7, 'info');
    badges.add(7, 'error');
    badges.add(7, 'warning');
    badges.add(9, 'warning');
    expect(badges.get(7)).toEqual({ count: 3, severity: 'error' });
    expect(badges.get(9)).toEqual({ count: 1, severity: 'warning' });
    expect(badges.get(8)).toBeUndefined();
    badges.clear();
    expect([...badges.keys()]).toEqual([]);
  });

  it('answers for numbers far beyond and between those it holds, and forgets them all on clear', () => {
    const badges = new Badges();
    badges.add(0, 'info');
    badges.add(100_000, 'error');
    expect(badges.get(0)).toEqual({ count: 1, severity: 'info' });
    expect(badges.get(100_000)).toEqual({ count: 1, severity: 'error' });
    for (const key of [1, 7, 8, 99_999, 100_001, 100_007, 100_008, 5_000_000]) expect(badges.get(key)).toBeUndefined();
    badges.clear();
    expect(badges.get(0)).toBeUndefined();
    expect(badges.get(100_000)).toBeUndefined();
    badges.add(3, 'warning');
    expect(badges.get(3)).toEqual({ count: 1, severity: 'warning' });
  });
});

describe('FindingBadges', () => {
  const finding = (
    at: Diagnostic['at'],
    severity: Diagnostic['severity'] = 'warning',
    rule: Diagnostic['rule'] = 'sse.oversize-line',
  ): Diagnostic => ({ rule, severity, message: 'm', at, seq: 0 });

  it("badges an envelope, or its frame on the frame's first envelope, and reports each row it changes", () => {
    const touched: number[] = [];
    // Frame 5 of leg 0 begins at envelope 10; frame 6 has no envelope yet.
    const firstEnvelope = (leg: number, frame: number) => (leg === 0 && frame === 5 ? 10 : -1);
    const findings = new FindingBadges(new DiagnosticStore(new SpoolFile()), firstEnvelope, (seq) => touched.push(seq));
    findings.add(finding({ envelope: 3 }, 'info'));
    findings.add(finding({ frame: 5, leg: 0 }, 'error'));
    findings.add(finding({ frame: 6, leg: 0 }));
    findings.add(finding({ envelope: 10 }, 'warning'));
    expect(touched).toEqual([3, 10, 10]);
    expect(findings.count).toBe(4);
    expect(findings.all().map((d) => d.seq)).toEqual([0, 1, 2, 3]);
    expect(findings.severityCounts()).toEqual({ error: 1, warning: 2, info: 1 });
    expect(findings.badgeOf(3, 0, 4)).toEqual({ count: 1, severity: 'info' });
    // The frame's badge adds to its first envelope's own, the worse severity wins.
    expect(findings.badgeOf(10, 0, 5)).toEqual({ count: 2, severity: 'error' });
    // Another envelope of the same frame carries only its own findings.
    expect(findings.badgeOf(11, 0, 5)).toBeUndefined();
  });

  it("keeps each leg's frame badges apart: frame 5 of leg 2 badges leg 2's row only", () => {
    const touched: number[] = [];
    const firstEnvelope = (leg: number, frame: number) => (frame === 5 ? leg * 100 : -1);
    const findings = new FindingBadges(new DiagnosticStore(new SpoolFile()), firstEnvelope, (seq) => touched.push(seq));
    findings.add(finding({ frame: 5, leg: 2 }, 'error'));
    expect(touched).toEqual([200]);
    expect(findings.badgeOf(200, 2, 5)).toEqual({ count: 1, severity: 'error' });
    expect(findings.badgeOf(0, 0, 5)).toBeUndefined();
    expect(findings.badgeOf(100, 1, 5)).toBeUndefined();
    touched.length = 0;
    findings.replace([]);
    expect(touched).toEqual([200]);
    expect(findings.badgeOf(200, 2, 5)).toBeUndefined();
  });

  it('replaces the list: every badged row is touched, counts restart, the kept findings are renumbered, resets counts up', () => {
    const touched: number[] = [];
    const findings = new FindingBadges(
      new DiagnosticStore(new SpoolFile()),
      () => 20,
      (seq) => touched.push(seq),
    );
    findings.add(finding({ envelope: 1 }, 'error', 'inline.unclosed'));
    findings.add(finding({ frame: 2, leg: 0 }, 'info'));
    touched.length = 0;
    findings.replace(findings.all().filter((d) => !d.rule.startsWith('inline.')));
    expect(touched).toEqual([1, 20, 20]);
    expect(findings.resets).toBe(1);
    expect(findings.all()).toEqual([{ ...finding({ frame: 2, leg: 0 }, 'info'), seq: 0 }]);
    expect(findings.severityCounts()).toEqual({ error: 0, warning: 0, info: 1 });
    expect(findings.badgeOf(1, 0, 0)).toBeUndefined();
  });
});
