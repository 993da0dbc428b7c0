import { jsonText } from '../../json/tree';
import { MessageClock } from '../provider/message-summary';
import { ArtifactChunks } from './artifacts';
import { idKey, type RpcId } from './message';

/** The last progress a token reported. */
interface Progress {
  token: string | number;
  progress: number;
  total: unknown;
  message: unknown;
  frame: number;
}

/**
 * One exchange of the stream: the request the stream answers (MCP: the POST's request, whose
 * response ends the stream; A2A: the `message/stream` or `tasks/resubscribe` request, every
 * event of which is a response to it), with what happened on the way. Its summary is the
 * `message` block: id, status, stop reason, time to first content, duration, and what this
 * protocol adds (the task's states, the last progress per token, the server's own requests).
 */
export class Exchange {
  /** The JSON-RPC id the stream answers, once its first response came. */
  rpcId: RpcId | undefined;
  protocol: 'mcp' | 'a2a' | undefined;
  taskId = '';
  contextId = '';
  /**
   * The agent its events are shown under: the task id the first A2A event names (as AG-UI's
   * events are under their run); none for MCP, which names no agent.
   */
  agent = '';
  /** Whether an A2A Task was announced (a Message result then no longer ends the stream). */
  sawTask = false;
  ended = false;
  /** The event that ended it. */
  endFrame = -1;
  /** What that event was, as a finding names it ('the final status update', 'the response'…). */
  endedBy = '';
  readonly clock: MessageClock;
  /** The task's states in the order they came (repeats dropped): its lifecycle. */
  readonly states: string[] = [];
  private readonly progress = new Map<string, Progress>();
  readonly serverRequests: { id: RpcId; method: string }[] = [];
  readonly artifacts = new ArtifactChunks();
  /** A result that carries no content (initialize, tools/list…): shown whole in the summary. */
  result: unknown;

  constructor(startedAt: number) {
    this.clock = new MessageClock(startedAt);
  }

  get rpcKey(): string | undefined {
    return this.rpcId === undefined ? undefined : idKey(this.rpcId);
  }

  /** The id the findings and ids name it by: the task id for A2A, the JSON-RPC id otherwise. */
  get label(): string {
    if (this.taskId !== '') return this.taskId;
    return this.rpcId === undefined ? '' : typeof this.rpcId === 'string' ? this.rpcId : jsonText(this.rpcId);
  }

  get sawProgress(): boolean {
    return this.progress.size > 0;
  }

  state(state: string): void {
    if (state !== '' && this.states[this.states.length - 1] !== state) this.states.push(state);
  }

  /**
   * Records a progress notification; returns the previous one of its token when the new one
   * does not increase (the spec: "The progress value MUST increase with each notification").
   */
  addProgress(key: string, next: Progress): Progress | undefined {
    const previous = this.progress.get(key);
    this.progress.set(key, next);
    return previous !== undefined && next.progress <= previous.progress ? previous : undefined;
  }

  /** The `message` block's payload, as JSON text. */
  summary(endedAt: number): string {
    this.clock.id = this.label;
    const summary: Record<string, unknown> = { ...this.clock.summary(endedAt) };
    if (this.protocol !== undefined) summary['protocol'] = this.protocol;
    if (this.taskId !== '') summary['task_id'] = this.taskId;
    if (this.contextId !== '') summary['context_id'] = this.contextId;
    if (this.rpcId !== undefined) summary['jsonrpc_id'] = this.rpcId;
    if (this.states.length > 0) summary['states'] = this.states;
    if (this.progress.size > 0)
      summary['progress'] = [...this.progress.values()].map(({ frame: _frame, ...progress }) => progress);
    if (this.serverRequests.length > 0) summary['server_requests'] = this.serverRequests;
    if (this.result !== undefined) summary['result'] = this.result;
    return jsonText(summary);
  }
}
