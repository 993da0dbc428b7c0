import { parentPort, workerData } from 'node:worker_threads';
import { INSPECTOR_CONTRACT } from '../../../../src-shared/contract/inspector';
import { createContractServer } from '../../../../src-shared/contract/wire';
import { composeInspector } from '../compose';
import { createDefaultSessionService } from '../default-service';
import { demoAgentInfo } from '../demo-agent-info';
import { HOST_ONLY, type SessionWorkerData } from './protocol';

/**
 * The session service in a worker thread: connections, decoding and the session store run
 * here, so a 100 MB file or a 10,000-envelope/s stream never delays the thread that answers
 * the renderer. The contract's message protocol carries calls and events over the port.
 */
const data = workerData as SessionWorkerData;
const port = parentPort;
if (!port) throw new Error('session-worker must run in a worker thread');

const sessions = createDefaultSessionService({
  demoAgent: () => (data.demoAgentUrl ? demoAgentInfo(data.demoAgentUrl) : null),
});
const server = createContractServer(INSPECTOR_CONTRACT, composeInspector(sessions, HOST_ONLY), (message) => port.postMessage(message), {
  onProtocolError: (message) => console.error(`session worker: ${message}`),
});
port.on('message', (message: unknown) => {
  if (message === 'dispose') {
    server.dispose();
    void sessions.dispose().then(() => port.postMessage('disposed'));
    return;
  }
  server.receive(message);
});
