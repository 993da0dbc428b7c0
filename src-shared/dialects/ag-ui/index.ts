import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { agUiClientTools } from './continuation';
import { createAgUiDecoder } from './decoder';
import { AG_UI_EVENT_TYPES } from './vocabulary';

const OPEN_BRACE = 0x7b;

/**
 * An AG-UI event: a JSON object whose `type` is one of the protocol's event names and that
 * carries what that event must (a run's ids, a RUN_ERROR's message, a RAW's event, a
 * CUSTOM's name). The agent's JSON envelopes (which name an `agent`) and the segment events
 * (`SEGMENT_*`, no AG-UI name) are not.
 */
function isAgUiEvent(frame: SniffedFrame): boolean {
  if (frame.data.charCodeAt(frame.start) !== OPEN_BRACE || !frame.data.includes('"type"')) return false;
  const object = frame.json();
  const type = object?.['type'];
  if (object === undefined || typeof type !== 'string' || !AG_UI_EVENT_TYPES.has(type) || 'agent' in object)
    return false;
  switch (type) {
    case 'RUN_STARTED':
    case 'RUN_FINISHED':
      return typeof object['runId'] === 'string' || typeof object['threadId'] === 'string';
    case 'RUN_ERROR':
      return typeof object['message'] === 'string';
    case 'RAW':
      return 'event' in object;
    case 'CUSTOM':
      return typeof object['name'] === 'string';
    default:
      return true;
  }
}

/** AG-UI events over SSE (docs/protocols/ag-ui.md). */
export const agUiDialect: DialectModule<'ag-ui'> = {
  id: 'ag-ui',
  label: 'AG-UI events',
  detect: isAgUiEvent,
  create: createAgUiDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'RUN_FINISHED or RUN_ERROR',
  clientTools: agUiClientTools,
};
