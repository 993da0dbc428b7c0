import type { InspectorService } from '../../src-shared/contract';

type Service = InspectorService;
/** A command's argument without the session id the façade supplies. */
type ArgOf<K extends keyof Service> = Service[K] extends (arg: infer A) => unknown ? Omit<A, 'sessionId'> : never;
type ResultOf<K extends keyof Service> = Service[K] extends (...args: never[]) => infer R ? R : never;

/**
 * What a view may ask of one session: its envelopes, frames, raw bytes and blocks, its replay
 * transport and its tool answers. Views hold this façade, never the contract client, so what a
 * view can do to a session is listed here and the service stays behind the model.
 */
export interface SessionCommands {
  readonly sessionId: string;
  envelope(seq: number): ResultOf<'getEnvelope'>;
  frame(leg: number, seq: number): ResultOf<'getFrame'>;
  rawBytes(range: ArgOf<'getRawBytes'>): ResultOf<'getRawBytes'>;
  block(block: number): ResultOf<'getBlock'>;
  stats(): ResultOf<'getStats'>;
  setInline(inline: ArgOf<'setInline'>['inline']): ResultOf<'setInline'>;
  replayControl(action: ArgOf<'replayControl'>['action']): ResultOf<'replayControl'>;
  /** Starts a replay of this session (a new session). */
  startReplay(options?: ArgOf<'startReplay'>): ResultOf<'startReplay'>;
  sendToolResults(request: ArgOf<'sendToolResults'>): ResultOf<'sendToolResults'>;
  rename(title: string): ResultOf<'renameSession'>;
  runInFormats(formats: ArgOf<'runInFormats'>['formats']): ResultOf<'runInFormats'>;
}

export function sessionCommands(service: InspectorService, sessionId: string): SessionCommands {
  return {
    sessionId,
    envelope: (seq) => service.getEnvelope({ sessionId, seq }),
    frame: (leg, seq) => service.getFrame({ sessionId, leg, seq }),
    rawBytes: (range) => service.getRawBytes({ ...range, sessionId }),
    block: (block) => service.getBlock({ sessionId, block }),
    stats: () => service.getStats({ sessionId }),
    setInline: (inline) => service.setInline({ sessionId, inline }),
    replayControl: (action) => service.replayControl({ sessionId, action }),
    startReplay: (options = {}) => service.startReplay({ ...options, sessionId }),
    sendToolResults: (request) => service.sendToolResults({ ...request, sessionId }),
    rename: (title) => service.renameSession({ sessionId, title }),
    runInFormats: (formats) => service.runInFormats({ sessionId, formats }),
  };
}
