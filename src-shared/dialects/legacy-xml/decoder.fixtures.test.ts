import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../../testing/chunking';
import {
  deltaBlocks,
  jsonFixtureEnvelopes,
  payloads,
  rulesOf,
  runDialectOnChunks,
  type DialectRun,
  type JsonEnvelope,
} from '../../../src-main/testing/dialects';
import { ROOT, shapes } from '../../../src-main/testing/legacy-xml';
import { listSseFixtures, readFixture, readManifest } from '../../../src-main/testing/fixtures';
import type { EnvelopeInit } from '../../envelope/types';
import { createLegacyXmlDecoder } from './decoder';

// ---- Real upstream streams ------------------------------------------------------------------

const manifest = readManifest();
const xmlFixtures = listSseFixtures().filter((f) => f.endsWith('.xml.sse'));

function decodeFixture(name: string): DialectRun {
  return runDialectOnChunks(createLegacyXmlDecoder, [readFixture(name)]);
}

function extrasOf(e: JsonEnvelope): Record<string, unknown> {
  const { type: _t, agent: _a, final: _f, delta: _d, ...extras } = e;
  return extras;
}

/** The item tag each decoded event came from, as the manifest counts them. */
function itemTags(run: DialectRun): Record<string, number> {
  const byFrame = new Map<number, EnvelopeInit>();
  for (const e of run.envelopes) if (!byFrame.has(e.frame)) byFrame.set(e.frame, e);
  const counts: Record<string, number> = {};
  const count = (tag: string): void => void (counts[tag] = (counts[tag] ?? 0) + 1);
  for (const e of byFrame.values()) {
    if (e.control === 'block-open') count(`content-block-${e.type}`);
    else if ((e.type === 'text' || e.type === 'thinking') && e.final) count(`/content-block-${e.type}`);
    else if (e.type === 'citation') count('citations');
    else if (['meta_init', 'meta_final', 'awaiting_frontend_tools'].includes(e.type)) count(e.type);
    else if (e.type === 'tool_result_image') count('content-block-tool_result');
    else if (e.type !== 'text' && e.type !== 'thinking') count(`content-block-${e.type}`);
  }
  return counts;
}

describe('upstream XML fixtures', () => {
  test.each(xmlFixtures)(
    '%s: every content event yields an envelope, none undecoded in a single-agent stream',
    (name) => {
      const run = decodeFixture(name);
      const covered = new Set(run.envelopes.map((e) => e.frame));
      expect(run.frames.filter((f) => !covered.has(f.seq))).toEqual([]);
      if (!name.startsWith('multi_agent')) expect(run.envelopes.filter((e) => e.control === 'undecoded')).toEqual([]);
    },
  );

  test.each(xmlFixtures.filter((f) => manifest[f]?.xml_item_tags !== undefined && !f.startsWith('multi_agent')))(
    '%s: item tags match MANIFEST xml_item_tags',
    (name) => {
      const expected = { ...manifest[name]?.xml_item_tags };
      // The manifest counts the text delta "</content" of probe_escaping as a tag; it is text.
      const lookalikes = expected['/content'] ?? 0;
      delete expected['/content'];
      const run = decodeFixture(name);
      expect(itemTags(run)).toEqual(expected);
      expect(run.envelopes.filter((e) => e.type === 'text' && e.delta === '</content')).toHaveLength(lookalikes);
    },
  );

  test.each(xmlFixtures.filter((f) => manifest[f]?.['xml_attr_json_checks'] !== undefined))(
    '%s: every attribute JSON parses, including those the demo parser fails on',
    (name) => {
      const checks = manifest[name]?.['xml_attr_json_checks'] as Record<string, number>;
      const run = decodeFixture(name);
      const keyOf: Record<string, string> = {
        meta_init: 'meta_init.data',
        meta_final: 'meta_final.data',
        awaiting_frontend_tools: 'awaiting_frontend_tools.data',
        tool_call: 'content-block-tool_call.arguments',
        server_tool_call: 'content-block-server_tool_call.arguments',
      };
      const parsed: Record<string, number> = {};
      for (const e of run.envelopes) {
        const key = keyOf[e.type];
        if (key === undefined) continue;
        JSON.parse(e.delta);
        parsed[`${key}:proper:ok`] = (parsed[`${key}:proper:ok`] ?? 0) + 1;
      }
      expect(parsed).toEqual(Object.fromEntries(Object.entries(checks).filter(([k]) => k.includes(':proper:'))));
      expect(rulesOf(run)).not.toContain('xml.attr-json');
    },
  );

  test.each(['example_1', 'json_stream', 'frontend_tools', 'frontend_tools_resume', 'probe_citations'])(
    '%s: text and thinking blocks equal the JSON run, block by block',
    (stem) => {
      expect(manifest[`${stem}.xml.sse`]?.['xml_text_roundtrip_exact']).toBe(true);
      const xml = decodeFixture(`${stem}.xml.sse`).envelopes;
      const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
      for (const type of ['text', 'thinking']) {
        expect(deltaBlocks(xml, type).map((b) => b.join(''))).toEqual(deltaBlocks(json, type).map((b) => b.join('')));
      }
    },
  );

  test.each([
    'example_1',
    'json_stream',
    'frontend_tools',
    'frontend_tools_resume',
    'probe_citations',
    'probe_escaping',
  ])("%s: buffered payloads parse to the JSON run's values", (stem) => {
    const xml = decodeFixture(`${stem}.xml.sse`).envelopes;
    const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
    for (const type of ['tool_call', 'server_tool_call', 'meta_final', 'awaiting_frontend_tools', 'meta_files']) {
      expect(payloads(xml, type).map((p) => JSON.parse(p) as unknown)).toEqual(
        payloads(json, type).map((p) => JSON.parse(p) as unknown),
      );
    }
    const withoutFormat = (p: string): unknown => ({ ...(JSON.parse(p) as object), format: undefined });
    expect(payloads(xml, 'meta_init').map(withoutFormat)).toEqual(payloads(json, 'meta_init').map(withoutFormat));
    expect(payloads(xml, 'server_tool_result')).toEqual(payloads(json, 'server_tool_result'));
  });

  it("probe_escaping: every text and thinking delta equals the JSON run's, except what the CR framing bug cut off", () => {
    const xml = decodeFixture('probe_escaping.xml.sse').envelopes;
    const json = jsonFixtureEnvelopes('probe_escaping.json.sse');
    for (const type of ['text', 'thinking']) {
      const expected = deltaBlocks(json, type).map((block) => block.map((d) => d.split('\r')[0]));
      expect(deltaBlocks(xml, type)).toEqual(expected);
    }
    const text = deltaBlocks(xml, 'text')[0]?.join('') ?? '';
    for (const hard of [
      'backslash-n: \\n',
      'LF:\nnext',
      'quotes: "q" \'s\'',
      '<content-block-text> </content-block-text> <chart>x</chart>',
      '&amp; &lt;',
      ']]>',
      'naïve 日本 😀',
      '\u2028',
      'double backslash: \\\\ end',
    ]) {
      expect(text).toContain(hard);
    }
  });

  it("probe_escaping: the tool result equals the JSON run's up to what its escaping cannot carry (CR, literal backslash-n)", () => {
    const xml = payloads(decodeFixture('probe_escaping.xml.sse').envelopes, 'tool_result');
    const json = payloads(jsonFixtureEnvelopes('probe_escaping.json.sse'), 'tool_result');
    expect(xml).toEqual(json.map((p) => p.replaceAll('\r\n', '\n').replaceAll('\r', '\n').replaceAll('\\n', '\n')));
    expect(xml[0]).toContain('cdata-end: ]]> |');
  });

  it('probe_escaping: the unprotected ]]> in the server tool result is reported and its content kept whole', () => {
    const run = decodeFixture('probe_escaping.xml.sse');
    expect(run.diagnostics.filter((d) => d.rule === 'xml.broken-cdata')).toHaveLength(1);
    expect(payloads(run.envelopes, 'server_tool_result')[0]).toContain('title=\'A \\"quoted\\" title ]]> & more\'');
  });

  it("frontend_tools: the multimodal tool result decodes to the JSON run's envelopes", () => {
    const pick = (e: { type: string }): boolean => e.type === 'tool_result' || e.type === 'tool_result_image';
    const xml = decodeFixture('frontend_tools.xml.sse').envelopes.filter(pick);
    const json = jsonFixtureEnvelopes('frontend_tools.json.sse').filter(pick);
    expect(xml.map((e) => ({ type: e.type, final: e.final, delta: e.delta, extras: e.extras }))).toEqual(
      json.map((e) => ({ type: e.type, final: e.final, delta: e.delta, extras: extrasOf(e) })),
    );
    expect(xml.map((e) => e.type)).toEqual(['tool_result', 'tool_result', 'tool_result_image', 'tool_result']);
  });

  it("probe_citations: the three citations equal the JSON run's citation envelopes", () => {
    const xml = decodeFixture('probe_citations.xml.sse').envelopes.filter((e) => e.type === 'citation');
    const json = jsonFixtureEnvelopes('probe_citations.json.sse').filter((e) => e.type === 'citation');
    expect(json).toHaveLength(3);
    expect(xml.map((e) => ({ final: e.final, delta: e.delta, extras: e.extras, agent: e.agent }))).toEqual(
      json.map((e) => ({ final: e.final, delta: e.delta, extras: extrasOf(e), agent: e.agent })),
    );
  });

  it('every fixture with a meta_init stamps its agent on all envelopes', () => {
    for (const stem of ['example_1', 'json_stream', 'frontend_tools', 'probe_citations', 'probe_escaping']) {
      const agents = new Set(decodeFixture(`${stem}.xml.sse`).envelopes.map((e) => e.agent));
      expect([...agents]).toEqual([...new Set(jsonFixtureEnvelopes(`${stem}.json.sse`).map((e) => e.agent))]);
    }
  });

  it('frontend_tools_resume: a continuation leg without meta_init is stamped with defaultAgent', () => {
    const run = runDialectOnChunks(createLegacyXmlDecoder, [readFixture('frontend_tools_resume.xml.sse')], {
      defaultAgent: ROOT,
    });
    expect(new Set(run.envelopes.map((e) => e.agent))).toEqual(new Set([ROOT]));
  });

  it('multi_agent: sub-agents are reported once, only their meta_init attributed, and no item is lost', () => {
    const run = decodeFixture('multi_agent.xml.sse');
    const parent = '22222222-2222-4222-8222-222222222222';
    expect(run.envelopes.filter((e) => e.type === 'meta_init').map((e) => e.agent)).toEqual([
      parent,
      '33333333-3333-4333-8333-333333333333',
      '44444444-4444-4444-8444-444444444444',
    ]);
    expect(new Set(run.envelopes.filter((e) => e.type !== 'meta_init').map((e) => e.agent))).toEqual(new Set([parent]));
    expect(rulesOf(run).filter((r) => r === 'xml.subagent-unattributed')).toHaveLength(1);
    expect(rulesOf(run)).toEqual(expect.arrayContaining(['xml.overlapping-blocks', 'xml.mismatched', 'xml.unclosed']));
    // Every item that is no tag reaches an envelope: as a delta, or kept undecoded.
    const notTags = run.frames.filter(
      (f) =>
        !/^<\/?(content-block-(text|thinking))>$/.test(f.data) &&
        !f.data.startsWith('<content-block-') &&
        !f.data.startsWith('<meta_'),
    );
    const carried = run.envelopes.filter(
      (e) => (e.type === 'text' || e.type === 'thinking' || e.control === 'undecoded') && e.delta !== '',
    );
    expect(carried.map((e) => e.frame)).toEqual(expect.arrayContaining(notTags.map((f) => f.seq)));
  });

  it('xml_stream_examples.captured: the pre-escaping era is recognised and its JSON payloads are not corrupted', () => {
    const run = decodeFixture('xml_stream_examples.captured.xml.sse');
    expect(rulesOf(run).filter((r) => r === 'xml.unescaped-stream')).toHaveLength(1);
    expect(rulesOf(run).filter((r) => r === 'xml.legacy-tag-name')).toHaveLength(2);
    const calls = run.envelopes.filter((e) => e.type === 'server_tool_call');
    const results = run.envelopes.filter((e) => e.type === 'server_tool_result');
    expect(calls).toHaveLength(6);
    expect(results).toHaveLength(6);
    for (const e of [...calls, ...results]) expect(() => JSON.parse(e.delta) as unknown).not.toThrow();
    expect(results.map((e) => e.extras['name'])).toContain('bash_code_execution_tool_result');
    // The pretty-printed meta_files item was cut at its first raw newline.
    expect(run.envelopes.find((e) => e.type === 'meta_files')?.delta).toBe('{');
    expect(rulesOf(run)).toContain('xml.broken-cdata');
    expect(run.envelopes.filter((e) => e.control === 'undecoded')).toEqual([]);
  });

  it('bug_xml_at_head: the meta_init before the error frame decodes', () => {
    expect(shapes(decodeFixture('bug_xml_at_head.xml.sse')).map((e) => e.type)).toEqual(['meta_init']);
  });

  test.each(xmlFixtures)('%s: results do not depend on how the bytes were chunked', (name) => {
    const bytes = readFixture(name);
    const whole = runDialectOnChunks(createLegacyXmlDecoder, [bytes]);
    for (const chunking of chunkings(bytes, [7, 99])) {
      const run = runDialectOnChunks(createLegacyXmlDecoder, chunking.chunks);
      expect({ chunking: chunking.name, envelopes: run.envelopes, diagnostics: run.diagnostics }).toEqual({
        chunking: chunking.name,
        envelopes: whole.envelopes,
        diagnostics: whole.diagnostics,
      });
    }
  });
});
