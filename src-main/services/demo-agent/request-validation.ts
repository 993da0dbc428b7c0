import { isJsonObject } from '../../../src-shared/json/values';
import { AGENT_TYPES, type AgentType } from '../../../src-shared/agents/wire-formats';
import type { PyValue } from './python-json';
import { pythonJsonError } from './python-json-error';
import { FORMATS, type Format, type FrontendResult } from './script';

/**
 * Request validation with the error bodies FastAPI + pydantic v2 produce (HTTP 422,
 * `{"detail":[{"type","loc","msg","input","ctx"?}]}`), for the two upstream request models
 * (`agent_router.py`: AgentRunRequest, ToolResultsRequest) plus the demo's own fields
 * (`format`, `scenario`, `pace`), which upstream would ignore as extras.
 */

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export const PACES = ['fast', 'realistic'] as const;
export type Pace = (typeof PACES)[number];

export interface RunRequest {
  user_prompt: PyValue;
  agent_uuid: string | null;
  agent_type: AgentType | null;
}

export interface ToolResultsRequest {
  agent_uuid: string;
  tool_results: FrontendResult[];
  agent_type: AgentType | null;
}

/** The demo's selectors, from the body or the query string. */
export interface DemoOptions {
  format?: Format;
  scenario?: string;
  pace?: Pace;
}

type Loc = (string | number)[];
const INVALID: unique symbol = Symbol('invalid');
type Checked<T> = T | typeof INVALID;

class Checker {
  readonly issues: ValidationIssue[] = [];

  fail(type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>): typeof INVALID {
    this.issues.push(ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input });
    return INVALID;
  }

  str(input: unknown, loc: Loc): Checked<string> {
    return typeof input === 'string' ? input : this.fail('string_type', loc, 'Input should be a valid string', input);
  }

  /** pydantic's lax bool: true/false, 0/1 and the usual words. */
  bool(input: unknown, loc: Loc): Checked<boolean> {
    if (typeof input === 'boolean') return input;
    if (typeof input === 'number') {
      if (input === 0 || input === 1) return input === 1;
      return this.fail('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input);
    }
    if (typeof input === 'string') {
      const word = input.toLowerCase();
      if (['1', 'on', 't', 'true', 'y', 'yes'].includes(word)) return true;
      if (['0', 'off', 'f', 'false', 'n', 'no'].includes(word)) return false;
      return this.fail('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input);
    }
    return this.fail('bool_type', loc, 'Input should be a valid boolean', input);
  }

  literal<T extends string>(values: readonly T[], input: unknown, loc: Loc): Checked<T> {
    if (typeof input === 'string' && (values as readonly string[]).includes(input)) return input as T;
    const quoted = values.map((v) => `'${v}'`);
    const expected =
      quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1] ?? ''}` : (quoted[0] ?? '');
    return this.fail('literal_error', loc, `Input should be ${expected}`, input, { expected });
  }

  /** A model's input must be an object; a missing required field reports the whole object as input. */
  object(input: unknown, loc: Loc): Checked<Record<string, unknown>> {
    if (isJsonObject(input)) return input;
    return this.fail(
      'model_attributes_type',
      loc,
      'Input should be a valid dictionary or object to extract fields from',
      input,
    );
  }

  required(object: Record<string, unknown>, key: string, loc: Loc): Checked<unknown> {
    return key in object ? object[key] : this.fail('missing', [...loc, key], 'Field required', object);
  }

  /** `Optional[X] = None`: absent or null is None. */
  optional<T>(
    object: Record<string, unknown>,
    key: string,
    check: (input: unknown, loc: Loc) => Checked<T>,
    loc: Loc,
  ): Checked<T | null> {
    const value = object[key];
    return value === undefined || value === null ? null : check(value, [...loc, key]);
  }

  /** `str | list[dict] | dict`: pydantic reports every union member's failure, tagged. */
  userPrompt(input: unknown, loc: Loc): Checked<PyValue> {
    if (typeof input === 'string' || isJsonObject(input)) return input as PyValue;
    const listTag = 'list[dict[any,any]]';
    const badItems = Array.isArray(input)
      ? input.flatMap((item: unknown, i) => (isJsonObject(item) ? [] : [{ i, item }]))
      : null;
    if (badItems && badItems.length === 0) return input as PyValue;
    this.fail('string_type', [...loc, 'str'], 'Input should be a valid string', input);
    if (badItems)
      for (const { i, item } of badItems)
        this.fail('dict_type', [...loc, listTag, i], 'Input should be a valid dictionary', item);
    else this.fail('list_type', [...loc, listTag], 'Input should be a valid list', input);
    return this.fail('dict_type', [...loc, 'dict[any,any]'], 'Input should be a valid dictionary', input);
  }

  toolResult(input: unknown, loc: Loc): Checked<FrontendResult> {
    const object = this.object(input, loc);
    if (object === INVALID) return INVALID;
    const toolUseId = this.required(object, 'tool_use_id', loc);
    const content = this.required(object, 'content', loc);
    const id = toolUseId === INVALID ? INVALID : this.str(toolUseId, [...loc, 'tool_use_id']);
    const text = content === INVALID ? INVALID : this.str(content, [...loc, 'content']);
    const isError = 'is_error' in object ? this.bool(object['is_error'], [...loc, 'is_error']) : false;
    return id === INVALID || text === INVALID || isError === INVALID
      ? INVALID
      : { tool_use_id: id, content: text, is_error: isError };
  }
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

const failed = (checker: Checker): { ok: false; issues: ValidationIssue[] } => ({ ok: false, issues: checker.issues });

const done = <T>(checker: Checker, value: T): Validated<T> =>
  checker.issues.length === 0 ? { ok: true, value } : failed(checker);

/** FastAPI's reading of a JSON body: an empty body is a missing body. */
export function parseJsonBody(text: string): Validated<unknown> {
  if (text.length === 0)
    return { ok: false, issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    const { position, reason } = pythonJsonError(text);
    return {
      ok: false,
      issues: [
        { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } },
      ],
    };
  }
}

export function validateRunRequest(body: unknown): Validated<RunRequest> {
  const checker = new Checker();
  const object = checker.object(body, ['body']);
  if (object === INVALID) return failed(checker);
  const prompt = checker.required(object, 'user_prompt', ['body']);
  const userPrompt = prompt === INVALID ? INVALID : checker.userPrompt(prompt, ['body', 'user_prompt']);
  const agentUuid = checker.optional(object, 'agent_uuid', (v, l) => checker.str(v, l), ['body']);
  const agentType = checker.optional(object, 'agent_type', (v, l) => checker.literal(AGENT_TYPES, v, l), ['body']);
  if (userPrompt === INVALID || agentUuid === INVALID || agentType === INVALID) return failed(checker);
  // The upstream model validator: neither uuid nor type means the frontend-tools agent.
  return done(checker, {
    user_prompt: userPrompt,
    agent_uuid: agentUuid,
    agent_type: agentType ?? (agentUuid ? null : 'agent_frontend_tools'),
  });
}

export function validateToolResultsRequest(body: unknown): Validated<ToolResultsRequest> {
  const checker = new Checker();
  const object = checker.object(body, ['body']);
  if (object === INVALID) return failed(checker);
  const uuid = checker.required(object, 'agent_uuid', ['body']);
  const agentUuid = uuid === INVALID ? INVALID : checker.str(uuid, ['body', 'agent_uuid']);
  const list = checker.required(object, 'tool_results', ['body']);
  let results: Checked<FrontendResult[]> = INVALID;
  if (list !== INVALID) {
    if (Array.isArray(list)) {
      const items = list.map((item: unknown, i) => checker.toolResult(item, ['body', 'tool_results', i]));
      results = items.some((r) => r === INVALID) ? INVALID : (items as FrontendResult[]);
    } else checker.fail('list_type', ['body', 'tool_results'], 'Input should be a valid list', list);
  }
  const agentType = checker.optional(object, 'agent_type', (v, l) => checker.literal(AGENT_TYPES, v, l), ['body']);
  if (agentUuid === INVALID || results === INVALID || agentType === INVALID) return failed(checker);
  return done(checker, { agent_uuid: agentUuid, tool_results: results, agent_type: agentType });
}

/**
 * The demo's selectors: `?format=`/`?scenario=`/`?pace=` in the query win over the same
 * fields in the body. `scenarioIds` lists the valid scenario names (null: no scenario here).
 */
export function validateDemoOptions(
  body: unknown,
  query: URLSearchParams,
  scenarioIds: readonly string[] | null,
): Validated<DemoOptions> {
  const checker = new Checker();
  const fromBody = isJsonObject(body) ? body : {};
  const pick = <T extends string>(key: string, values: readonly T[]): Checked<T | undefined> => {
    const queried = query.get(key);
    if (queried !== null) return checker.literal(values, queried, ['query', key]);
    const value = fromBody[key];
    return value === undefined || value === null ? undefined : checker.literal(values, value, ['body', key]);
  };
  const format = pick('format', FORMATS);
  const scenario = scenarioIds ? pick('scenario', scenarioIds) : undefined;
  const pace = pick('pace', PACES);
  if (format === INVALID || scenario === INVALID || pace === INVALID) return failed(checker);
  const options: DemoOptions = {};
  if (format) options.format = format;
  if (scenario) options.scenario = scenario;
  if (pace) options.pace = pace;
  return done(checker, options);
}
