import { openSource } from '../services/importers/index';
import { createRecorder, RECORDING_TOOL } from '../services/recording/recorder';
import type { RecorderFactory } from '../services/sessions/recorder-port';
import {
  createSessionService,
  type SessionService,
  type SessionServiceDeps,
} from '../services/sessions/session-service';

/** The recorder with this program's name in the file header. */
export const fileRecorder: RecorderFactory = (path, options) =>
  createRecorder(path, { ...options, tool: RECORDING_TOOL });

/** The session service wired to the real recorder and importers (what every host runs). */
export function createDefaultSessionService(
  deps: Omit<SessionServiceDeps, 'createRecorder' | 'openSource'> = {},
): SessionService {
  return createSessionService({ createRecorder: fileRecorder, openSource, ...deps });
}
