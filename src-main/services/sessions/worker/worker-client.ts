import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES, type InspectorService } from '../../../../src-shared/contract/inspector';
import { createContractClient } from '../../../../src-shared/contract/wire';
import type { SessionWorkerData } from './protocol';

/**
 * Starts the session service in a worker thread and returns it behind the same contract
 * interface, so hosts compose it exactly like the in-process service. Messages are checked
 * on the way back like any other transport's.
 */
export interface SessionWorker {
  readonly service: InspectorService;
  dispose(): Promise<void>;
}

export interface SessionWorkerOptions extends SessionWorkerData {
  /** The worker's entry: the built session-worker.js, or session-worker.ts when running from source. */
  entry: URL;
  /** The entry is TypeScript: load it through tsx (the CLI, `npm start` and the tests run from source). */
  fromSource?: boolean;
  onError?: (error: Error) => void;
}

/** A worker bootstrap that registers tsx's loader, then imports the TypeScript entry. */
function sourceBootstrap(entry: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

export function startSessionWorker(options: SessionWorkerOptions): SessionWorker {
  const data: SessionWorkerData = { demoAgentUrl: options.demoAgentUrl };
  const worker = options.fromSource
    ? new Worker(sourceBootstrap(options.entry), { eval: true, workerData: data })
    : new Worker(options.entry, { workerData: data });
  const client = createContractClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, (message) => worker.postMessage(message), {
    // The worker's contract server checked every result and event against the contract
    // before posting it, and a structured clone of checked plain data is the same data:
    // checking again here would parse every batch twice on the host's thread. The host's
    // own server still checks what it sends on to the renderer.
    validate: false,
    onProtocolError: (message) => options.onError?.(new Error(message)),
  });
  worker.on('message', (message: unknown) => {
    if (message !== 'disposed') client.receive(message);
  });
  worker.on('error', (error) => {
    client.close(`The session worker failed: ${error.message}`);
    options.onError?.(error);
  });
  worker.on('exit', () => client.close('The session worker stopped'));
  return {
    service: client.service,
    async dispose() {
      worker.postMessage('dispose');
      await Promise.race([once(worker, 'message'), once(worker, 'exit')]);
      await worker.terminate();
    },
  };
}
