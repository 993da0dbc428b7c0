import type { Frame } from '../../sse/types';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { DataStreamReader } from './data-stream';
import { AiSdkMessage } from './message';
import { UiChunkReader } from './ui-chunks';

/**
 * The Vercel AI SDK's streams to a `useChat` frontend (docs/protocols/ai-sdk-ui.md): the UI
 * message stream of AI SDK 5 and later (SSE, one JSON chunk per event, `[DONE]` last) or the
 * v4 data stream (one `CODE:JSON` part per line). Which one a leg is comes from its first
 * frame: a JSON object is a UI chunk, anything else a data stream line. Both map onto the
 * same message operations (message.ts): text and reasoning parts stream as text and thinking
 * blocks, tool calls become calls with their parsed input and results, sources, files and
 * data parts blocks of their type, and every message ends with its `message` summary and,
 * when it waits for tools the frontend runs, an `awaiting_frontend_tools` pause.
 */
export function createAiSdkUiDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  let message: AiSdkMessage | undefined;
  let lines: DataStreamReader | undefined;
  let chunks: UiChunkReader | undefined;
  let sawDone = false;

  function push(frame: Frame): void {
    if (!message) {
      message = new AiSdkMessage(callbacks, frame.data.charCodeAt(0) === 0x7b /* { */ ? 'ui' : 'data');
      if (sawDone) message.done();
    }
    if (message.parts.wire === 'data')
      (lines ??= new DataStreamReader(message, options.readShapes !== false)).read(frame);
    else (chunks ??= new UiChunkReader(message, options.readShapes !== false)).read(frame);
  }

  return {
    id: 'ai-sdk-ui',
    push,
    done() {
      sawDone = true;
      message?.done();
    },
    end() {
      lines?.end();
      message?.end();
    },
  };
}
