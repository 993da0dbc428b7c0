import { describe, expect, it } from 'vitest';
import { diffSessions } from './diff';
import { call, result, session, spaced, type BlockSpec } from '../testing/diff-sessions';

/* What the diff forgives: the ways two formats or servers write the same content. */

describe('diffSessions: normalisations', () => {
  it('compares JSON payloads as values: Python spacing against compact JSON', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{"a": 1, "b": [1, 2]}')] }),
      session({ blocks: [call('t1', 'add', '{"a":1,"b":[1,2]}')] }),
    );
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['json-value'],
      reason: 'equal after normalising JSON spacing and escapes',
    });
    expect(diff.rows[0]?.left?.text).toBe(diff.rows[0]?.right?.text);
    expect(diff.counts.normalised).toBe(1);
  });

  it('reads ensure_ascii escapes as the characters they stand for', () => {
    const diff = diffSessions(
      session({ blocks: [{ kind: 'meta_final', content: '{"t": "na\\u00efve"}' }] }),
      session({ blocks: [{ kind: 'meta_final', content: '{"t": "naïve"}' }] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['json-value'] });
  });

  it('lists the JSON normalisation beside another only when the texts are also written differently', () => {
    const meta = (format: string, text: (v: unknown) => string): BlockSpec => ({
      kind: 'meta_init',
      content: text({ format, model: 'm' }),
    });
    const sameStyle = diffSessions(
      session({ blocks: [meta('xml', spaced)] }),
      session({ dialect: 'raw', blocks: [meta('raw', spaced)] }),
    );
    expect(sameStyle.rows[0]?.normalisations).toEqual(['meta-format-field']);
    const otherStyle = diffSessions(
      session({ blocks: [meta('json', spaced)] }),
      session({ dialect: 'xml', blocks: [meta('xml', JSON.stringify)] }),
    );
    expect(otherStyle.rows[0]?.normalisations).toEqual(['json-value', 'meta-format-field']);
  });

  it('does not list the JSON normalisation on a changed row', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{"a": 1}')] }),
      session({ blocks: [call('t1', 'add', '{"a":2}')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', normalisations: [], reason: 'arguments differ' });
  });

  it('ignores the meta_init format field, which names the wire format', () => {
    const meta = (format: string): BlockSpec => ({
      kind: 'meta_init',
      content: spaced({ format, user_query: 'q', model: 'm' }),
    });
    const diff = diffSessions(session({ blocks: [meta('json')] }), session({ dialect: 'xml', blocks: [meta('xml')] }));
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['meta-format-field'],
      reason: 'equal after normalising meta_init format',
    });
    expect(diff.rows[0]?.left?.text).not.toContain('format');
  });

  it('still compares the rest of meta_init', () => {
    const meta = (format: string, model: string): BlockSpec => ({
      kind: 'meta_init',
      content: JSON.stringify({ format, model }),
    });
    const diff = diffSessions(
      session({ blocks: [meta('json', 'a')] }),
      session({ dialect: 'xml', blocks: [meta('xml', 'b')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'content differs' });
  });

  it('renders a raw structured server tool result as the repr json sends', () => {
    const structured = { content: [], return_code: 0, stdout: "it's\n", type: 'bash_code_execution_result' };
    const repr =
      "BetaBashCodeExecutionResultBlock(content=[], return_code=0, stdout=\"it's\\n\", type='bash_code_execution_result')";
    const block = (content: string): BlockSpec => ({
      kind: 'server_tool_result',
      toolId: 's1',
      name: 'bash_code_execution_tool_result',
      content,
    });
    const diff = diffSessions(
      session({ blocks: [block(JSON.stringify(repr))] }),
      session({ dialect: 'raw', blocks: [block(JSON.stringify(structured))] }),
    );
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['server-tool-result-repr'],
      left: { text: repr },
      right: { text: repr },
    });

    const other = diffSessions(
      session({ blocks: [block(JSON.stringify(repr))] }),
      session({ dialect: 'raw', blocks: [block(JSON.stringify({ ...structured, return_code: 1 }))] }),
    );
    expect(other.rows[0]?.status).toBe('changed');
  });

  it('undoes what xml tool_result CDATA cannot keep: CR, CRLF and a literal backslash-n', () => {
    const diff = diffSessions(
      session({ blocks: [result('t', 'echo', 'a\\n b\r\nc\rd')] }),
      session({ dialect: 'xml', blocks: [result('t', 'echo', 'a\n b\nc\nd')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['xml-tool-result-newlines'] });
    const json = diffSessions(
      session({ blocks: [result('t', 'echo', 'a\\n')] }),
      session({ blocks: [result('t', 'echo', 'a\n')] }),
    );
    expect(json.rows[0]?.status).toBe('changed');
  });

  it('drops empty citation fields only against an xml side', () => {
    const cite = (fields: Record<string, unknown>): BlockSpec => ({
      kind: 'text',
      content: 'T',
      citations: [{ citationType: 'web_search_result_location', citedText: 'T', fields }],
    });
    const json = session({ blocks: [cite({ url: 'u', title: '' })] });
    expect(diffSessions(json, session({ dialect: 'xml', blocks: [cite({ url: 'u' })] })).rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['xml-citation-empty'],
    });
    expect(diffSessions(json, session({ blocks: [cite({ url: 'u' })] })).rows[0]?.status).toBe('changed');
  });

  it('compares images of a multimodal tool result', () => {
    const image = [{ src: '/agent/x/images/1', mediaType: 'image/png' }];
    expect(
      diffSessions(
        session({ blocks: [result('t', 'chart', 'ok', image)] }),
        session({ dialect: 'xml', blocks: [result('t', 'chart', 'ok', image)] }),
      ).rows[0]?.status,
    ).toBe('equal');
    const diff = diffSessions(
      session({ blocks: [result('t', 'chart', 'ok', image)] }),
      session({ blocks: [result('t', 'chart', 'ok')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'images differ' });
  });
});

describe('diffSessions: xml text after a raw CR', () => {
  it('explains xml text that lost the rest of each delta after a CR', () => {
    const json = session({ blocks: [{ kind: 'text', content: 'one\r\ntwo three', deltas: ['one\r\ntwo', ' three'] }] });
    const xml = session({
      dialect: 'xml',
      blocks: [{ kind: 'text', content: 'one three', deltas: ['one', ' three'] }],
    });
    const diff = diffSessions(json, xml);
    expect(diff.rows[0]).toMatchObject({ status: 'changed', inherent: 'xml-unescaped-cr' });
    expect(diff.counts.differences).toBe(0);
  });

  it('does not excuse xml text that differs in another way', () => {
    const json = session({ blocks: [{ kind: 'text', content: 'one\r\ntwo three', deltas: ['one\r\ntwo', ' three'] }] });
    const xml = session({ dialect: 'xml', blocks: [{ kind: 'text', content: 'one thre', deltas: ['one', ' thre'] }] });
    expect(diffSessions(json, xml).rows[0]?.inherent).toBeUndefined();
  });
});
