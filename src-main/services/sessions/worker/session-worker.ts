import { parentPort, workerData } from 'node:worker_threads';
import { INSPECTOR_CONTRACT } from '../../../../src-shared/contract/inspector';
import { createContractServer } from '../../../../src-shared/contract/wire';
import { errorMessage } from '../../../../src-shared/json/values';
import { terminalSafe } from '../../../../src-shared/text/terminal';
import { composeInspector } from '../../../hosts/compose';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { demoAgentInfo } from '../demo-agent-info';
import {
  HOST_ONLY,
  WORKSPACE_HOST_ONLY,
  type HostToWorker,
  type SessionWorkerData,
  type WorkerToHost,
} from './protocol';

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
  ...(data.spoolDir !== undefined ? { spoolDir: data.spoolDir } : {}),
});
const server = createContractServer(
  INSPECTOR_CONTRACT,
  composeInspector(sessions, HOST_ONLY, WORKSPACE_HOST_ONLY),
  (message) => port.postMessage(message),
  {
    // A protocol error quotes what the client sent: escaped before it reaches the host's terminal.
    onProtocolError: (message) => console.error(`session worker: ${terminalSafe(message)}`),
  },
);
const post = (message: WorkerToHost): void => port.postMessage(message);

port.on('message', (message: unknown) => {
  const control = message as HostToWorker;
  if (control === 'dispose') {
    server.dispose();
    void sessions.dispose().then(() => post('disposed'));
    return;
  }
  if (typeof control === 'object' && control !== null && control.t === 'hold-batches') {
    sessions.holdBatches(control.held);
    return;
  }
  if (typeof control === 'object' && control !== null && (control as { t?: unknown }).t === 'reload') {
    void Promise.all(
      control.sessions.map((spec) =>
        sessions.reopen(spec).then(
          () => null,
          (error: unknown) => ({ sessionId: spec.sessionId, message: errorMessage(error) }),
        ),
      ),
    ).then((results) => post({ t: 'reloaded', failed: results.filter((r) => r !== null) }));
    return;
  }
  server.receive(message);
});
