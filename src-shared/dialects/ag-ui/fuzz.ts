import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/*
 * The fuzzer's grammar of AG-UI streams (docs/dialects.md): events mostly well
 * formed, with ids from small sets so that starts, contents, ends and results meet, runs that
 * open and close in any order, JSON Patch deltas against a state of any depth, and now and then
 * a field of the wrong type, an event type the protocol lacks or a value nested deeper than any
 * recursive walk survives.
 */

const ARGS = ['{"city":', '"Paris"', '}', '{"a":[1,', '2]}', 'not json', ''];
const PATHS = ['', '/a', '/a/0', '/a/-', '/b', '/b/c', '/~0~1', '/__proto__', '/a/99', 'no-slash'];
const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'merge'];

/** A value a patch or a snapshot holds: small ones that paths meet, now and then any (deeply nested) value. */
function value(random: Random): unknown {
  return random() < 0.5 ? pick(random, [{ a: [1, 2] }, [text(random)], { b: { c: 1 } }]) : jsonValue(random);
}

/** Mostly right, sometimes a value of another type: the decoder must keep the event and say why. */
function field(random: Random, right: unknown): unknown {
  return random() < 0.95 ? right : value(random);
}

const id = (random: Random, prefix: string): string => `${prefix}_${int(random, 3)}`;

function patchOperation(random: Random): unknown {
  if (random() < 0.03) return value(random);
  return { op: pick(random, OPS), path: pick(random, PATHS), from: pick(random, PATHS), value: value(random) };
}

function agUiEvent(random: Random): string {
  const run = { threadId: 'thread_1', runId: id(random, 'run') };
  const message = { messageId: field(random, id(random, 'msg')) };
  const call = { toolCallId: field(random, id(random, 'call')) };
  const events: (() => Record<string, unknown>)[] = [
    () => ({ type: 'RUN_STARTED', ...run, ...(random() < 0.3 ? { input: { state: value(random) } } : {}) }),
    () => ({ type: 'RUN_FINISHED', ...run, ...(random() < 0.3 ? { outcome: { type: 'success' } } : {}) }),
    () => ({ type: 'RUN_ERROR', message: field(random, text(random)), code: 'boom' }),
    () => ({ type: pick(random, ['STEP_STARTED', 'STEP_FINISHED']), stepName: id(random, 'step') }),
    () => ({ type: 'TEXT_MESSAGE_START', ...message, role: 'assistant' }),
    () => ({ type: 'TEXT_MESSAGE_CONTENT', ...message, delta: field(random, text(random)) }),
    () => ({ type: 'TEXT_MESSAGE_CONTENT', ...message, delta: field(random, text(random)) }),
    () => ({ type: 'TEXT_MESSAGE_END', ...message }),
    () => ({ type: 'TEXT_MESSAGE_CHUNK', ...(random() < 0.6 ? message : {}), delta: text(random) }),
    () => ({ type: pick(random, ['REASONING_START', 'REASONING_END']), ...message }),
    () => ({ type: 'REASONING_MESSAGE_START', ...message, role: 'reasoning' }),
    () => ({ type: 'REASONING_MESSAGE_CONTENT', ...message, delta: text(random) }),
    () => ({
      type: pick(random, ['REASONING_MESSAGE_END', 'REASONING_MESSAGE_CHUNK']),
      ...message,
      delta: text(random),
    }),
    () => ({
      type: pick(random, [
        'THINKING_START',
        'THINKING_END',
        'THINKING_TEXT_MESSAGE_START',
        'THINKING_TEXT_MESSAGE_END',
      ]),
    }),
    () => ({ type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: text(random) }),
    () => ({ type: 'TOOL_CALL_START', ...call, toolCallName: 'get_weather', parentMessageId: id(random, 'msg') }),
    () => ({ type: 'TOOL_CALL_ARGS', ...call, delta: field(random, pick(random, ARGS)) }),
    () => ({ type: 'TOOL_CALL_END', ...call }),
    () => ({ type: 'TOOL_CALL_CHUNK', ...(random() < 0.6 ? call : {}), toolCallName: 'f', delta: pick(random, ARGS) }),
    () => ({ type: 'TOOL_CALL_RESULT', ...call, messageId: id(random, 'res'), content: field(random, text(random)) }),
    () => ({ type: 'STATE_SNAPSHOT', snapshot: value(random) }),
    () => ({
      type: 'STATE_DELTA',
      delta: field(
        random,
        Array.from({ length: 1 + int(random, 3) }, () => patchOperation(random)),
      ),
    }),
    () => ({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'res_0', role: 'tool', toolCallId: id(random, 'call') }] }),
    () => ({ type: pick(random, ['RAW', 'CUSTOM']), event: value(random), name: 'custom', value: value(random) }),
    () => ({ type: pick(random, ['ACTIVITY_SNAPSHOT', 'REASONING_ENCRYPTED_VALUE', 'TELEPATHY']), entityId: 'msg_0' }),
  ];
  return jsonText(pick(random, events)());
}

export const fuzzGrammar: FuzzDialect = {
  event: agUiEvent,
  opening: jsonText({ type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_0' }),
};
