import { jsonText } from '../../json/tree';
import { pick, text as say, type FuzzDialect, type Random } from '../../testing/fuzz';

/*
 * The fuzzer's grammar of JSON-RPC streams: MCP notifications, server requests and results,
 * A2A task, status and artifact events, errors, batches, and the near misses a server can send
 * (no or another `jsonrpc`, both result and error, odd ids). Ids, tokens and artifact ids come
 * from small sets, so responses meet their requests, progress repeats and chunks meet artifacts.
 */

const IDS: readonly unknown[] = [1, 2, '1', 'req-1', null, 1.5, { id: 1 }];
const STATES = ['submitted', 'working', 'input-required', 'completed', 'failed', 'TASK_STATE_WORKING', 'bogus'];

function envelope(random: Random, fields: Record<string, unknown>): Record<string, unknown> {
  const roll = random();
  const version = roll < 0.93 ? '2.0' : roll < 0.97 ? undefined : pick(random, ['1.0', 2, null]);
  return version === undefined ? fields : { jsonrpc: version, ...fields };
}

function mcpMessage(random: Random): Record<string, unknown> {
  switch (Math.floor(random() * 6)) {
    case 0:
      return {
        method: 'notifications/progress',
        params: {
          progressToken: pick(random, [1, 'tok']),
          progress: Math.floor(random() * 5),
          total: 4,
          message: say(random),
        },
      };
    case 1:
      return { method: 'notifications/message', params: { level: pick(random, ['info', 'error']), data: say(random) } };
    case 2:
      return {
        id: pick(random, IDS),
        method: pick(random, ['sampling/createMessage', 'roots/list', 'elicitation/create']),
        params: {},
      };
    case 3:
      return {
        id: pick(random, IDS),
        result: {
          content: [
            { type: 'text', text: say(random) },
            pick(random, [
              { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
              { type: 'resource', resource: { uri: 'file:///a', text: say(random) } },
              7,
            ]),
          ],
          isError: random() < 0.3,
          ...(random() < 0.3 ? { structuredContent: { value: say(random) } } : {}),
        },
      };
    case 4:
      return { id: pick(random, IDS), result: { protocolVersion: '2025-06-18', serverInfo: { name: 'fuzz' } } };
    default:
      return {
        id: pick(random, IDS),
        error: pick(random, [{ code: -32601, message: say(random) }, 'broken', { code: 'x' }]),
      };
  }
}

function a2aResult(random: Random): Record<string, unknown> {
  const status = {
    state: pick(random, STATES),
    message: { role: 'agent', parts: [{ kind: 'text', text: say(random) }] },
  };
  switch (Math.floor(random() * 4)) {
    case 0:
      return { kind: 'task', id: pick(random, ['task-1', 'task-2']), contextId: 'ctx', status };
    case 1:
      return { kind: 'status-update', taskId: 'task-1', status, final: random() < 0.3 };
    case 2:
      return {
        kind: 'artifact-update',
        taskId: 'task-1',
        artifact: {
          artifactId: pick(random, ['a1', 'a2']),
          parts: [
            pick(random, [
              { kind: 'text', text: say(random) },
              { kind: 'data', data: { n: 1 } },
              { kind: 'file', file: { uri: 'https://example.com/f' } },
            ]),
          ],
        },
        append: random() < 0.6,
        lastChunk: random() < 0.3,
      };
    default:
      return { statusUpdate: { taskId: 'task-1', status: { state: pick(random, STATES) } } };
  }
}

function event(random: Random): string {
  const roll = random();
  if (roll < 0.02) return '';
  if (roll < 0.04) return '[{"jsonrpc":"2.0","method":"notifications/message","params":{}}]';
  if (roll < 0.06) return jsonText(envelope(random, { id: 1, result: {}, error: { code: 1, message: 'both' } }));
  if (roll < 0.5) return jsonText(envelope(random, mcpMessage(random)));
  return jsonText(envelope(random, { id: pick(random, [1, 1, 1, 2]), result: a2aResult(random) }));
}

/** No `event:` field to fill in and no `[DONE]`: JSON-RPC streams end with their last response. */
export const fuzzGrammar: FuzzDialect = { event, framing: { eventField: false, sequenceNumbers: false } };
