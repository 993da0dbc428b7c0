import { describe, expect, test } from 'vitest';
import { AGENT, demoEndpoints, post, useDemoAgent } from './testing/http';

const demo = useDemoAgent();
const { run, answer } = demoEndpoints(demo);

/* The demo agent's request validation: its 422 bodies, as FastAPI writes them. */

describe('422 validation errors, as FastAPI writes them', () => {
  const detail = async (reply: Promise<{ status: number; text: string }>): Promise<unknown> => {
    const { status, text } = await reply;
    expect(status).toBe(422);
    return (JSON.parse(text) as { detail: unknown }).detail;
  };

  test('missing user_prompt reports the whole body as input', async () => {
    expect(await detail(run({ agent_uuid: 'x' }))).toEqual([
      { type: 'missing', loc: ['body', 'user_prompt'], msg: 'Field required', input: { agent_uuid: 'x' } },
    ]);
  });

  test('a body nested 20,000 deep is echoed in the 422, not a 500', async () => {
    const depth = 20_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const [issue] = (await detail(post(demo.url, '/agent/run', `{"agent_uuid": ${nested}}`, { raw: true }))) as {
      loc: unknown;
      input: { agent_uuid: unknown };
    }[];
    expect(issue?.loc).toEqual(['body', 'user_prompt']);
    let level: unknown = issue?.input.agent_uuid;
    let seen = 0;
    while (Array.isArray(level) && level.length > 0) {
      level = (level as unknown[])[0];
      seen += 1;
    }
    expect(seen).toBe(depth - 1);
  });

  test('an empty body is a missing body', async () => {
    expect(await detail(post(demo.url, '/agent/run', '', { raw: true }))).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
  });

  test('invalid JSON is json_invalid at the error position', async () => {
    expect(await detail(post(demo.url, '/agent/run', '{"user_prompt": }', { raw: true }))).toEqual([
      {
        type: 'json_invalid',
        loc: ['body', 16],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  });

  test('a body that is not an object', async () => {
    expect(await detail(post(demo.url, '/agent/run', '[]', { raw: true }))).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [],
      },
    ]);
  });

  test('a user_prompt of the wrong type fails every member of the union', async () => {
    expect(await detail(run({ user_prompt: 5 }))).toEqual([
      { type: 'string_type', loc: ['body', 'user_prompt', 'str'], msg: 'Input should be a valid string', input: 5 },
      {
        type: 'list_type',
        loc: ['body', 'user_prompt', 'list[dict[any,any]]'],
        msg: 'Input should be a valid list',
        input: 5,
      },
      {
        type: 'dict_type',
        loc: ['body', 'user_prompt', 'dict[any,any]'],
        msg: 'Input should be a valid dictionary',
        input: 5,
      },
    ]);
  });

  test('agent_uuid must be a string and agent_type one of the router literals', async () => {
    const expected =
      "'agent_no_tools', 'agent_client_tools', 'agent_frontend_tools', 'agent_all_json', 'agent_skills' or 'agent_subagents'";
    expect(await detail(run({ user_prompt: 'hi', agent_uuid: 7, agent_type: 'agent_cowork' }))).toEqual([
      { type: 'string_type', loc: ['body', 'agent_uuid'], msg: 'Input should be a valid string', input: 7 },
      {
        type: 'literal_error',
        loc: ['body', 'agent_type'],
        msg: `Input should be ${expected}`,
        input: 'agent_cowork',
        ctx: { expected },
      },
    ]);
  });

  test('the demo selectors are validated too (query and body)', async () => {
    expect(await detail(run({ user_prompt: 'hi', pace: 'slow' }, '?format=yaml'))).toEqual([
      {
        type: 'literal_error',
        loc: ['query', 'format'],
        msg: "Input should be 'json', 'xml' or 'raw'",
        input: 'yaml',
        ctx: { expected: "'json', 'xml' or 'raw'" },
      },
      {
        type: 'literal_error',
        loc: ['body', 'pace'],
        msg: "Input should be 'fast' or 'realistic'",
        input: 'slow',
        ctx: { expected: "'fast' or 'realistic'" },
      },
    ]);
    const unknown = (await detail(run({ user_prompt: 'hi', scenario: 'nope' }))) as { type: string; loc: unknown[] }[];
    expect(unknown[0]).toMatchObject({ type: 'literal_error', loc: ['body', 'scenario'] });
  });

  test('tool_results: required fields, string content, boolean is_error', async () => {
    expect(await detail(answer({}))).toEqual([
      { type: 'missing', loc: ['body', 'agent_uuid'], msg: 'Field required', input: {} },
      { type: 'missing', loc: ['body', 'tool_results'], msg: 'Field required', input: {} },
    ]);
    expect(
      await detail(
        answer({
          agent_uuid: AGENT,
          tool_results: [{ tool_use_id: 't', content: { ok: true }, is_error: 'maybe' }, 3],
        }),
      ),
    ).toEqual([
      {
        type: 'string_type',
        loc: ['body', 'tool_results', 0, 'content'],
        msg: 'Input should be a valid string',
        input: { ok: true },
      },
      {
        type: 'bool_parsing',
        loc: ['body', 'tool_results', 0, 'is_error'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
      {
        type: 'model_attributes_type',
        loc: ['body', 'tool_results', 1],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 3,
      },
    ]);
    expect(await detail(answer({ agent_uuid: AGENT, tool_results: 'yes' }))).toEqual([
      { type: 'list_type', loc: ['body', 'tool_results'], msg: 'Input should be a valid list', input: 'yes' },
    ]);
  });
});

/** The continuation's items decoded to what matters, per format. */
