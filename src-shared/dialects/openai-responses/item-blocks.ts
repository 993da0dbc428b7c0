import type { UnifiedTool } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import type { StartedBlock } from '../block-tracker';
import { checkToolArguments, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { BUILTIN_ITEMS, CALL_OUTPUT_ITEMS, CLIENT_RUN_ITEMS, clientRunInput, STATUS_CALLS } from './vocabulary';

/*
 * What an output item becomes once it is done: a function, custom or MCP call envelope, a call
 * of a tool the client runs (local shell, shell, patch) and the output the API's own container
 * gave one, or a built-in tool's server call with its status phases and result (a generated
 * image attached).
 */

/** An output item between response.output_item.added and .done. */
export interface OpenItem extends StartedBlock {
  type: string;
  id: string;
  name: string;
  callId: string;
  /** Streamed arguments, custom tool input or interpreter code, joined at the item's done. */
  input: string[];
  /** Status phases of a built-in or MCP call, in arrival order. */
  phases: string[];
  /** A custom tool call the API ran itself: it names none of the client's custom tools (declared-tools.ts). */
  ranByApi: boolean;
}

/** The blocks an output item makes once it is done (its content parts made theirs already). */
export function emitItem(ctx: ProviderEventContext, open: OpenItem, item: WireEvent): void {
  const what = `The ${open.type} item ${open.id || '(no id)'}${open.name ? ` (${open.name})` : ''}`;
  switch (open.type) {
    case 'message':
      return;
    case 'reasoning':
      return emitOpaqueReasoning(ctx, open, item);
    case 'function_call': {
      const args = typeof item['arguments'] === 'string' ? item['arguments'] : open.input.join('');
      checkToolArguments(ctx, args, what);
      ctx.emit({
        type: KIND.tool_call,
        final: true,
        delta: args === '' ? '{}' : args,
        extras: { id: open.callId || open.id, name: open.name },
      });
      return;
    }
    case 'custom_tool_call': {
      const input = typeof item['input'] === 'string' ? item['input'] : open.input.join('');
      if (open.ranByApi) {
        // The API's own tool (xAI's x_search): a server call, its result what its status says, as a built-in's.
        ctx.emit({
          type: KIND.server_tool_call,
          final: true,
          delta: jsonText({ ...item, input: parsedOr(input) }),
          extras: { id: open.id, name: open.name },
        });
        emitResult(ctx, open, jsonText({ status: item['status'] ?? null }));
        return;
      }
      ctx.emit({
        type: KIND.custom_tool_call,
        final: true,
        delta: input,
        extras: { id: open.callId || open.id, name: open.name },
      });
      return;
    }
    case 'mcp_call': {
      const args = typeof item['arguments'] === 'string' ? item['arguments'] : open.input.join('');
      checkToolArguments(ctx, args, what);
      ctx.emit({
        type: KIND.server_tool_call,
        final: true,
        delta: jsonText({
          server_label: item['server_label'],
          name: open.name,
          arguments: parsedOr(args),
          phases: open.phases,
        }),
        extras: { id: open.id, name: open.name },
      });
      const output = item['error'] ?? item['output'];
      if (output !== undefined && output !== null)
        emitResult(ctx, open, typeof output === 'string' ? output : jsonText(output));
      return;
    }
    case 'image_generation_call':
      return emitImage(ctx, open, item);
    case 'mcp_approval_request':
      ctx.emit({
        type: KIND.server_tool_call,
        final: true,
        delta: jsonText({
          approval_request: true,
          server_label: item['server_label'],
          name: open.name,
          arguments: parsedOr(stringField(item, 'arguments')),
        }),
        extras: { id: open.id, name: open.name },
      });
      return;
    default: {
      const clientRun = CLIENT_RUN_ITEMS[open.type];
      if (clientRun) {
        // A tool the client runs: what to run (the item's action or operation) is the call's input.
        ctx.emit({
          type: KIND.tool_call,
          final: true,
          delta: jsonText(clientRunInput(clientRun, item) ?? open.input.join('')),
          extras: { id: open.callId || open.id, name: clientRun.tool },
        });
        return;
      }
      const outputOf = CALL_OUTPUT_ITEMS[open.type];
      if (outputOf) {
        // The output of a call the API ran itself (a shell in its container): the call's result.
        const id = stringField(item, 'call_id') || open.callId;
        ctx.emit({
          type: KIND.tool_result,
          final: true,
          delta: jsonText(item['output'] ?? null),
          extras: { id, name: outputOf },
        });
        return;
      }
      if (STATUS_CALLS.has(open.type) || BUILTIN_ITEMS.has(open.type)) {
        const { results, outputs, ...call } = item;
        const code = open.input.join('');
        ctx.emit({
          type: KIND.server_tool_call,
          final: true,
          delta: jsonText({
            ...call,
            ...(code !== '' && call['code'] === undefined ? { code } : {}),
            phases: open.phases,
          }),
          extras: { id: open.id, name: open.type },
        });
        const result = results ?? outputs ?? (open.type === 'mcp_list_tools' ? item['tools'] : undefined);
        emitResult(ctx, open, jsonText(result ?? { status: item['status'] ?? null }));
        return;
      }
      // An item type this version does not know: kept whole as a block of its type.
      ctx.emit({ type: open.type || 'unknown_item', final: true, delta: jsonText(item), extras: { id: open.id } });
    }
  }
}

/**
 * A reasoning item that carries only its `encrypted_content` (no summary asked for, no
 * reasoning text): kept whole as a redacted thinking block, as Anthropic's redacted_thinking,
 * so the user sees the model reasoned and what a stateless continuation must send back. A
 * reasoning item with readable parts made its blocks from them already.
 */
function emitOpaqueReasoning(ctx: ProviderEventContext, open: OpenItem, item: WireEvent): void {
  const readable = [item['summary'], item['content']].some((parts) => Array.isArray(parts) && parts.length > 0);
  const encrypted = item['encrypted_content'];
  if (readable || typeof encrypted !== 'string' || encrypted === '') return;
  ctx.emit({ type: KIND.redacted_thinking, final: true, delta: jsonText(item), extras: { id: open.id } });
}

function emitResult(ctx: ProviderEventContext, open: OpenItem, delta: string): void {
  ctx.emit({ type: KIND.server_tool_result, final: true, delta, extras: { id: open.id, name: open.type } });
}

/** A generated image: the call, then a tool result holding the image (base64 PNG unless the item says otherwise). */
function emitImage(ctx: ProviderEventContext, open: OpenItem, item: WireEvent): void {
  const { result, ...call } = item;
  ctx.emit({
    type: KIND.server_tool_call,
    final: true,
    delta: jsonText({ ...call, phases: open.phases }),
    extras: { id: open.id, name: open.type },
  });
  ctx.emit({ type: KIND.tool_result, final: false, delta: '', extras: { id: open.id, name: open.type } });
  if (typeof result === 'string' && result !== '') {
    const format = stringField(item, 'output_format') || 'png';
    ctx.emit({
      type: KIND.tool_result_image,
      final: true,
      delta: '',
      extras: { id: open.id, src: `data:image/${format};base64,${result}`, media_type: `image/${format}` },
    });
  }
  ctx.emit({
    type: KIND.tool_result,
    final: true,
    delta: jsonText({ status: item['status'] ?? null, revised_prompt: item['revised_prompt'] ?? null }),
    extras: { id: open.id, name: open.type },
  });
}

export function toolOf(open: OpenItem, item: WireEvent): UnifiedTool | undefined {
  switch (open.type) {
    case 'function_call':
      return { kind: 'client', name: open.name };
    case 'custom_tool_call':
      return { kind: open.ranByApi ? 'server' : 'custom', name: open.name };
    case 'mcp_call':
    case 'mcp_list_tools':
    case 'mcp_approval_request':
      return {
        kind: 'mcp',
        name: open.name || open.type,
        ...(typeof item['server_label'] === 'string' ? { builtin: item['server_label'] } : {}),
      };
    default: {
      const clientRun = CLIENT_RUN_ITEMS[open.type];
      if (clientRun) return { kind: 'client', name: clientRun.tool };
      return BUILTIN_ITEMS.has(open.type) ? { kind: 'builtin', builtin: open.type.replace(/_call$/, '') } : undefined;
    }
  }
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
