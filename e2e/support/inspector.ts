import WebSocket from 'ws';
import {
  createSocketClient,
  INSPECTOR_CONTRACT,
  INSPECTOR_NAMES,
  socketUrlFor,
  type InspectorService,
} from '../../src-shared/contract';

/**
 * The tests' own client of the running browser host: the same contract the page uses, over
 * its WebSocket. The suite uses it to start every test from a host without sessions (the host
 * outlives the tests) and to wait on session states the UI shows only as text.
 */
export interface InspectorHandle {
  readonly service: InspectorService;
  close(): void;
}

export async function connectInspector(pageUrl: string): Promise<InspectorHandle> {
  const client = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(pageUrl)), {
    onProtocolError: (message) => console.error(`inspector client: ${message}`),
  });
  await client.ready;
  return { service: client.service, close: () => client.close() };
}

/** Closes every session the host holds, so a test sees only what it starts. */
export async function closeAllSessions(service: InspectorService): Promise<void> {
  for (const session of await service.listSessions()) await service.closeSession({ sessionId: session.id });
}
