import { openSource } from '../importers/index';
import { createRecorder, RECORDING_TOOL } from '../recording/recorder';
import type { RecorderFactory } from './recorder-port';
import { createSessionService, type SessionService, type SessionServiceDeps } from './session-service';

/** The recorder with this program's name in the file header. */
export const fileRecorder: RecorderFactory = (path, options) =>
  createRecorder(path, { ...options, tool: RECORDING_TOOL });

/** The session service wired to the real recorder and importers (what every host runs). */
export function createDefaultSessionService(deps: Omit<SessionServiceDeps, 'createRecorder' | 'openSource'> = {}): SessionService {
  return createSessionService({ createRecorder: fileRecorder, openSource, ...deps });
}
