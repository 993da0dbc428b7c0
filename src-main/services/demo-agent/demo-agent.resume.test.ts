import { describe, expect, test } from 'vitest';
import { FORMATS, type Format } from './script';
import { demoEndpoints, envelopes, items, type post, useDemoAgent } from './testing/http';

const demo = useDemoAgent();
const { run, answer } = demoEndpoints(demo);

/* A run paused for frontend tools, and its continuation by /agent/tool_results. */

function continuationSummary(
  text: string,
  format: Format,
): { first: string; hasMetaInit: boolean; hasMetaFinal: boolean; text: string } {
  const list = items(text);
  const joined = list.join('\n');
  if (format === 'json') {
    const envs = envelopes(text);
    return {
      first: `${envs[0]?.type ?? ''}:${envs[0]?.delta ?? ''}`,
      hasMetaInit: envs.some((e) => e.type === 'meta_init'),
      hasMetaFinal: envs.some((e) => e.type === 'meta_final'),
      text: envs
        .filter((e) => e.type === 'text')
        .map((e) => e.delta)
        .join(''),
    };
  }
  const deltas =
    format === 'xml'
      ? list.filter((i) => !i.startsWith('<') && i !== '[DONE]')
      : list
          .filter((i) => i.includes('"text_delta"'))
          .map((i) => (JSON.parse(i) as { delta: { text: string } }).delta.text);
  const first = list[0]?.startsWith('<content-block-tool_result id="toolu_demo_confirm" name="user_confirm"><![CDATA[')
    ? `tool_result:${/CDATA\[(.*)\]\]>/.exec(list[0])?.[1] ?? ''}`
    : (list[0] ?? '');
  return {
    first,
    hasMetaInit: joined.includes('<meta_init'),
    hasMetaFinal: joined.includes('<meta_final'),
    text: deltas.join(''),
  };
}

describe.each(FORMATS)('frontend tool pause and resume (%s)', (format) => {
  const uuid = `f0f0f0f0-0000-4000-8000-00000000000${FORMATS.indexOf(format)}`;
  const pause = (): ReturnType<typeof post> =>
    run({ user_prompt: 'What is 12 * 7? Confirm with me before saving the report.', agent_uuid: uuid, format });
  const reply = (
    content: string,
    id = 'toolu_demo_confirm',
    extra: Record<string, unknown> = {},
  ): ReturnType<typeof post> =>
    answer({
      agent_uuid: uuid,
      tool_results: [{ tool_use_id: id, content, ...extra }],
      agent_type: 'agent_frontend_tools',
    });

  test('the run pauses: awaiting_frontend_tools, then [DONE], no meta_final', async () => {
    const list = items((await pause()).text);
    expect(list.at(-1)).toBe('[DONE]');
    const awaiting = list.at(-2) ?? '';
    if (format === 'json') {
      expect(JSON.parse(awaiting)).toMatchObject({
        type: 'awaiting_frontend_tools',
        final: true,
        delta:
          '[{"tool_use_id": "toolu_demo_confirm", "name": "user_confirm", "input": {"message": "The product is 84. Save the report?"}}]',
      });
    } else {
      expect(awaiting).toBe(
        '<awaiting_frontend_tools data="[{&quot;tool_use_id&quot;: &quot;toolu_demo_confirm&quot;, &quot;name&quot;: &quot;user_confirm&quot;, &quot;input&quot;: {&quot;message&quot;: &quot;The product is 84. Save the report?&quot;}}]"></awaiting_frontend_tools>',
      );
    }
    expect(list.join('\n')).not.toContain('meta_final');
  });

  test('"yes" resumes: tool_result for the answer, the answer text, meta_final, [DONE]; no meta_init', async () => {
    await pause();
    const resumed = await reply('yes');
    expect(resumed.status).toBe(200);
    expect(items(resumed.text).at(-1)).toBe('[DONE]');
    const summary = continuationSummary(resumed.text, format);
    expect(summary).toEqual({
      first: 'tool_result:yes',
      hasMetaInit: false,
      hasMetaFinal: true,
      text: 'Confirmed — the report is saved. 12 × 7 = 84.',
    });
  });

  test('"no" gives the other answer; an unclear answer pauses again with a new tool id', async () => {
    await pause();
    expect(continuationSummary((await reply('no')).text, format).text).toBe(
      'Understood — I did not save the report. 12 × 7 = 84.',
    );
    await pause();
    const unclear = items((await reply('perhaps')).text);
    expect(unclear.at(-1)).toBe('[DONE]');
    expect(unclear.at(-2)).toContain('toolu_demo_confirm_2');
    expect(continuationSummary((await reply('yes', 'toolu_demo_confirm_2')).text, format).text).toContain('Confirmed');
  });

  test('mismatched ids end in the legacy error frame and keep the pause; a second resume is refused', async () => {
    await pause();
    const mismatch = items((await reply('yes', 'toolu_wrong')).text);
    expect(mismatch).toHaveLength(1);
    const frame = JSON.parse(mismatch[0] ?? '') as { error: string; message: string; traceback: string };
    expect(frame.error).toBe('ValueError');
    expect(frame.message).toBe(
      "Tool result mismatch. Expected tool_use_ids: {'toolu_demo_confirm'}, got: {'toolu_wrong'}",
    );
    expect(mismatch[0]?.startsWith('{"error": "ValueError", "message": ')).toBe(true);
    expect(frame.traceback).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*ValueError: Tool result mismatch/);

    expect(items((await reply('yes')).text).at(-1)).toBe('[DONE]');
    const again = items((await reply('yes')).text);
    expect(again).toHaveLength(1);
    expect(JSON.parse(again[0] ?? '')).toMatchObject({
      error: 'ValueError',
      message: 'Agent is not awaiting frontend tools',
    });
  });

  test('an error result is answered as a failure of the dialog', async () => {
    await pause();
    expect(
      continuationSummary((await reply('dialog closed', 'toolu_demo_confirm', { is_error: true })).text, format).text,
    ).toBe('The confirmation dialog failed (“dialog closed”), so I did not save the report. 12 × 7 = 84.');
  });
});

test('the continuation uses the paused run’s format unless the request names one', async () => {
  const uuid = 'f1f1f1f1-0000-4000-8000-000000000001';
  await run({ user_prompt: 'Confirm with me', agent_uuid: uuid, format: 'xml' });
  const resumed = items(
    (await answer({ agent_uuid: uuid, tool_results: [{ tool_use_id: 'toolu_demo_confirm', content: 'yes' }] })).text,
  );
  expect(resumed[0]?.startsWith('<content-block-tool_result')).toBe(true);
  await run({ user_prompt: 'Confirm with me', agent_uuid: uuid, format: 'xml' });
  const asJson = envelopes(
    (
      await answer(
        { agent_uuid: uuid, tool_results: [{ tool_use_id: 'toolu_demo_confirm', content: 'yes' }] },
        '?format=json',
      )
    ).text,
  );
  expect(asJson[0]).toMatchObject({
    type: 'tool_result',
    agent: uuid,
    id: 'toolu_demo_confirm',
    name: 'user_confirm',
    delta: 'yes',
  });
});
