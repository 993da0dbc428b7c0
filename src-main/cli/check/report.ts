import { countOf } from '../../../src-shared/text/count';
import { envelopeJson, envelopeLine } from '../filter-option';
import { terminalSafe } from '../../../src-shared/text/terminal';
import { resolve } from 'node:path';
import { RECORDING_PROPERTY_NAME } from '../../../src-shared/recording/check-report';
import type { CheckedRecording } from './run';

export interface CheckTotals {
  recordings: number;
  assertions: number;
  passed: number;
  failed: number;
}

export function totalsOf(checked: readonly CheckedRecording[]): CheckTotals {
  const all = checked.flatMap((c) => c.results);
  const passed = all.filter((r) => r.pass).length;
  return { recordings: checked.length, assertions: all.length, passed, failed: all.length - passed };
}

/** One line of the report: text from streams and specs never breaks it. */
const line = (text: string): string => terminalSafe(text, { multiline: false });

/**
 * Why a file cannot be read, of several lines (a HAR's entries to choose from), as lines of the
 * report: those after the first indented under it, so none can pass for a result's line, and
 * none written as `\x0a`.
 */
const errorLines = (text: string): string[] => text.split('\n').map((part, i) => line(i === 0 ? part : `    ${part}`));

/** The readable report: per recording, each assertion with PASS or FAIL, why, and the envelope that decided it. */
export function formatCheckReport(checked: readonly CheckedRecording[]): string {
  const out: string[] = [];
  for (const c of checked) {
    const facts = c.error
      ? [`cannot be read: ${c.error}`]
      : [
          c.kind ?? '',
          countOf(c.legs ?? 0, 'leg'),
          countOf(c.envelopes ?? 0, 'envelope'),
          `status ${c.status ?? '?'}`,
          ...(c.decodedAs ?? []),
        ];
    out.push(...errorLines(`${c.file} · ${facts.join(' · ')}`));
    const width = Math.min(40, Math.max(...c.results.map((r) => r.name.length)));
    for (const r of c.results) {
      // Of a file that cannot be read, the line above said why; --json keeps it in each detail.
      const detail = c.error ? 'not checked' : r.detail;
      out.push(line(`  ${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(width)}  ${detail}`));
      if (r.name !== r.expect) out.push(line(`        ${r.expect}`));
      if (r.envelope) out.push(`        ${r.pass ? 'by' : 'at'} ${envelopeLine(r.envelope)}`);
      // An assertion about findings decided by an envelope names them: the envelope alone
      // (a meta_init, for a finding about the file) does not say which finding matched.
      if (r.envelope?.findings.length && /\bfinding\./.test(r.expect))
        out.push(line(`        findings: ${r.envelope.findings.map((f) => `${f.severity} ${f.rule}`).join(', ')}`));
    }
    out.push('');
  }
  const t = totalsOf(checked);
  out.push(
    `${countOf(t.recordings, 'recording')}, ${countOf(t.assertions, 'assertion')}: ${t.passed} passed, ${t.failed} failed`,
    '',
  );
  return out.join('\n');
}

export function checkJson(checked: readonly CheckedRecording[]): object {
  return {
    ...totalsOf(checked),
    recordings: checked.map((c) => ({
      file: c.file,
      ...(c.error
        ? { error: c.error }
        : { kind: c.kind, status: c.status, legs: c.legs, envelopes: c.envelopes, decodedAs: c.decodedAs }),
      results: c.results.map((r) => ({
        name: r.name,
        expect: r.expect,
        pass: r.pass,
        detail: r.detail,
        ...(r.envelope ? { envelope: envelopeJson(r.envelope) } : {}),
      })),
    })),
  };
}

/**
 * JUnit XML, for any CI's test view: a testsuite per recording, named by its path as given,
 * with its absolute path (from `cwd`) in a property, and a testcase per assertion, so that
 * opening the report opens the recordings it checked (src-shared/recording/check-report.ts).
 */
export function checkJunit(checked: readonly CheckedRecording[], cwd: string): string {
  const t = totalsOf(checked);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="stream-inspector check" tests="${t.assertions}" failures="${t.failed}">`,
  ];
  for (const c of checked) {
    const failures = c.results.filter((r) => !r.pass).length;
    out.push(`  <testsuite name="${xml(c.file)}" tests="${c.results.length}" failures="${failures}">`);
    if (c.file !== '-')
      out.push(
        `    <properties><property name="${RECORDING_PROPERTY_NAME}" value="${xml(resolve(cwd, c.file))}"/></properties>`,
      );
    for (const r of c.results) {
      const open = `    <testcase classname="${xml(c.file)}" name="${xml(r.name)}"`;
      if (r.pass) {
        out.push(`${open}/>`);
        continue;
      }
      const body = [r.expect, r.detail, ...(r.envelope ? [envelopeLine(r.envelope)] : [])].join('\n');
      out.push(
        `${open}>`,
        `      <failure type="assertion" message="${xml(r.detail)}">${xml(body)}</failure>`,
        '    </testcase>',
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** Escapes XML text and attributes; characters XML 1.0 cannot carry at all become U+FFFD. */
function xml(text: string): string {
  return (
    text
      /* eslint-disable no-control-regex */
      .replace(
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '\ufffd',
      )
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/\n/g, '&#10;')
  );
  /* eslint-enable no-control-regex */
}
