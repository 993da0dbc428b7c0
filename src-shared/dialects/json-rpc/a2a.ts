import { isJsonObject } from '../../json/values';

/**
 * The results of an A2A `message/stream` / `tasks/resubscribe` stream, read alike from the
 * three shapes public servers send (docs/protocols/json-rpc.md): the `kind` discriminator
 * (protocol 0.2–0.3: `task`, `message`, `status-update`, `artifact-update`), the member that
 * names the event (1.0: `{task}`, `{message}`, `{statusUpdate}`, `{artifactUpdate}`, states
 * `TASK_STATE_*`), and the first drafts' shapes without either (0.1: `tasks/sendSubscribe`,
 * parts with `type`, artifacts by `index`, `append`/`lastChunk` inside the artifact).
 */

export type PartKind = 'text' | 'file' | 'data' | 'other';

export interface A2aPart {
  kind: PartKind;
  /** The text of a text part ('' for the others). */
  text: string;
  /** A file's name or a data part's media type, for the block's name. */
  label: string;
  /** The part as sent, for the blocks of file, data and other parts. */
  value: unknown;
}

export interface A2aMessage {
  role: string;
  parts: A2aPart[];
}

export interface A2aArtifact {
  /** `artifactId`, or `#<index>` for the first drafts' artifacts. */
  key: string;
  name: string;
  parts: A2aPart[];
}

interface TaskFields {
  taskId: string;
  contextId: string;
  /** The state in the 0.x spelling (`working`, `input-required`), whatever shape sent it. */
  state: string;
  statusMessage: A2aMessage | undefined;
}

export type A2aEvent =
  | ({ kind: 'task'; artifacts: A2aArtifact[] } & TaskFields)
  | ({ kind: 'status-update'; final: boolean | undefined } & TaskFields)
  | { kind: 'artifact-update'; taskId: string; artifact: A2aArtifact; append: boolean; lastChunk: boolean }
  | { kind: 'message'; taskId: string; message: A2aMessage };

/** States after which a task does nothing more. */
const TERMINAL_STATES = new Set(['completed', 'failed', 'canceled', 'cancelled', 'rejected']);
/** States in which a task waits for the client: the stream ends there too. */
const INTERRUPTED_STATES = new Set(['input-required', 'auth-required']);
/** Terminal states that mean the task did not do its work. */
const FAILED_STATES = new Set(['failed', 'rejected']);

export const isFailedState = (state: string): boolean => FAILED_STATES.has(state);

/** A2A's task states (0.x spelling; `cancelled` as some servers write it), the terminal and waiting ones among them. */
const KNOWN_STATES: ReadonlySet<string> = new Set([
  'submitted',
  'working',
  'unknown',
  ...TERMINAL_STATES,
  ...INTERRUPTED_STATES,
]);

export const isKnownState = (state: string): boolean => KNOWN_STATES.has(state);

/**
 * Whether a status event ends its stream: `final: true` (0.x), or a terminal or interrupted
 * state where no `final` member says otherwise (1.0 removed it: the stream closes there).
 */
export function endsStream(event: { state: string; final?: boolean | undefined }): boolean {
  if (event.final !== undefined) return event.final;
  return TERMINAL_STATES.has(event.state) || INTERRUPTED_STATES.has(event.state);
}

const WRAPPERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** The A2A event a JSON-RPC result is, or undefined when it is no A2A event (an MCP result). */
export function readA2aResult(result: unknown): A2aEvent | undefined {
  if (!isJsonObject(result)) return undefined;
  const kind = result['kind'];
  if (typeof kind === 'string') return byKind(kind, result);
  for (const member of WRAPPERS) {
    const inner = result[member];
    if (isJsonObject(inner)) return byMember(member, inner);
  }
  return legacy(result);
}

function byKind(kind: string, body: Record<string, unknown>): A2aEvent | undefined {
  switch (kind) {
    case 'task':
      return task(body);
    case 'message':
      return message(body);
    case 'status-update':
      return statusUpdate(body);
    case 'artifact-update':
      return artifactUpdate(body);
    default:
      return undefined;
  }
}

function byMember(member: (typeof WRAPPERS)[number], inner: Record<string, unknown>): A2aEvent | undefined {
  switch (member) {
    case 'task':
      return hasStatus(inner) ? task(inner) : undefined;
    case 'statusUpdate':
      return hasStatus(inner) ? statusUpdate(inner) : undefined;
    case 'artifactUpdate':
      return isJsonObject(inner['artifact']) ? artifactUpdate(inner) : undefined;
    case 'message':
      return Array.isArray(inner['parts']) ? message(inner) : undefined;
  }
}

/** The first drafts: no discriminator, the event told by its members. */
function legacy(body: Record<string, unknown>): A2aEvent | undefined {
  if (isJsonObject(body['artifact']) && (typeof body['id'] === 'string' || typeof body['taskId'] === 'string'))
    return artifactUpdate(body);
  if (hasStatus(body) && 'final' in body) return statusUpdate(body);
  if (hasStatus(body) && typeof body['id'] === 'string') return task(body);
  if (Array.isArray(body['parts']) && typeof body['role'] === 'string') return message(body);
  return undefined;
}

function hasStatus(body: Record<string, unknown>): boolean {
  const status = body['status'];
  return isJsonObject(status) && typeof status['state'] === 'string';
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function taskFields(body: Record<string, unknown>, idMember: 'id' | 'taskId'): TaskFields {
  const status = isJsonObject(body['status']) ? body['status'] : {};
  const statusMessage = status['message'];
  return {
    taskId: text(body[idMember]) || text(body['id']),
    contextId: text(body['contextId']) || text(body['sessionId']),
    state: readState(status['state']),
    statusMessage: isJsonObject(statusMessage) ? readMessage(statusMessage) : undefined,
  };
}

function task(body: Record<string, unknown>): A2aEvent {
  const artifacts = Array.isArray(body['artifacts']) ? body['artifacts'] : [];
  return {
    kind: 'task',
    ...taskFields(body, 'id'),
    artifacts: artifacts.filter(isJsonObject).map((artifact, i) => readArtifact(artifact, i)),
  };
}

function statusUpdate(body: Record<string, unknown>): A2aEvent {
  const final = body['final'];
  return {
    kind: 'status-update',
    ...taskFields(body, 'taskId'),
    final: typeof final === 'boolean' ? final : undefined,
  };
}

function artifactUpdate(body: Record<string, unknown>): A2aEvent {
  const artifact = isJsonObject(body['artifact']) ? body['artifact'] : {};
  // The first drafts carried append and lastChunk inside the artifact.
  const flag = (name: string): boolean => (body[name] ?? artifact[name]) === true;
  return {
    kind: 'artifact-update',
    taskId: text(body['taskId']) || text(body['id']),
    artifact: readArtifact(artifact, undefined),
    append: flag('append'),
    lastChunk: flag('lastChunk'),
  };
}

function message(body: Record<string, unknown>): A2aEvent {
  return { kind: 'message', taskId: text(body['taskId']), message: readMessage(body) };
}

function readMessage(body: Record<string, unknown>): A2aMessage {
  const role = text(body['role']);
  const parts = Array.isArray(body['parts']) ? body['parts'] : [];
  return { role: role.startsWith('ROLE_') ? role.slice(5).toLowerCase() : role, parts: parts.map(readPart) };
}

function readArtifact(body: Record<string, unknown>, position: number | undefined): A2aArtifact {
  const index = body['index'];
  const key =
    text(body['artifactId']) ||
    (typeof index === 'number' ? `#${index}` : position !== undefined ? `#${position}` : text(body['name']));
  const parts = Array.isArray(body['parts']) ? body['parts'] : [];
  return { key, name: text(body['name']), parts: parts.map(readPart) };
}

/** `TASK_STATE_INPUT_REQUIRED` (1.0) and `input-required` (0.x) are the same state. */
/**
 * A task state in 0.x's spelling: 1.0's enum names (`TASK_STATE_INPUT_REQUIRED`) read as
 * `input-required`; any other value is kept as sent, so a state outside the spec's list is
 * shown as the server wrote it, not respelled into one.
 */
function readState(value: unknown): string {
  const state = text(value);
  if (!state.startsWith('TASK_STATE_')) return state;
  return state.slice('TASK_STATE_'.length).toLowerCase().replaceAll('_', '-');
}

function readPart(part: unknown): A2aPart {
  if (!isJsonObject(part)) return { kind: 'other', text: '', label: '', value: part };
  const tag = part['kind'] ?? part['type'];
  if (typeof part['text'] === 'string' && (tag === undefined || tag === 'text'))
    return { kind: 'text', text: part['text'], label: '', value: part };
  const file = part['file'];
  if (tag === 'file' || isJsonObject(file)) {
    const inner = isJsonObject(file) ? file : {};
    return { kind: 'file', text: '', label: text(inner['name']) || text(inner['mimeType']), value: part };
  }
  if ('raw' in part || 'url' in part)
    return { kind: 'file', text: '', label: text(part['filename']) || text(part['mediaType']), value: part };
  if ('data' in part) return { kind: 'data', text: '', label: text(part['mediaType']), value: part };
  return { kind: 'other', text: '', label: typeof tag === 'string' ? tag : '', value: part };
}
