import { rm } from 'node:fs/promises';
import type { DecodeAgainAsRequest, SessionSummary } from '../../../src-shared/contract/payloads';
import { saveRecording } from './session-files';
import type { Runtime, SessionRegistry, SessionServiceDeps } from './session-registry';
import type { createFileSessions } from './sources/file-session';
import type { OpenAgainRequest } from './sources/reopen-request';

/**
 * "Decode as…" (`decodeAgainAs`): a session's bytes decoded again as another dialect, as a new
 * session in the old one's place. A file is opened again (its HAR entries, check report,
 * in-text reading and title kept; an upload's copy handed over). A live run that ended is saved
 * as a recording in the private upload folder, which the new session opens and removes when it
 * closes: what was received is decoded again without sending the request again. A dialect the
 * file says was chosen gives way to any format asked for here, `auto` included. The old session
 * is closed once the new one opened, so a failure leaves it as it was.
 */
export function createDecodeAgain(
  registry: SessionRegistry,
  files: Pick<ReturnType<typeof createFileSessions>, 'openAgain'>,
  closeSession: (request: { sessionId: string }) => Promise<void>,
  createRecorder: SessionServiceDeps['createRecorder'],
) {
  const { runtimeOf, summaryOf } = registry;

  /** A live run's received bytes, saved as a recording in the private upload folder: the file to open again. */
  async function copyOfLiveRun(rt: Runtime, summary: SessionSummary): Promise<string> {
    if (rt.current || summary.state === 'connecting' || summary.state === 'streaming')
      throw new Error('The run is still streaming: stop it, or let it end, then decode what it received.');
    if (summary.awaitingTools)
      throw new Error(
        'The run waits for its tool answers: answer them (or stop the session) first. Decoded again, it would be a copy that cannot be answered.',
      );
    if (!createRecorder) throw new Error('Recording is not available in this host');
    const { path, handle } = await registry.uploads.create(`${summary.title}.recording`);
    // The recorder makes its file itself, exclusively: the folder only chose the private name.
    await handle.close();
    await rm(path);
    try {
      await saveRecording(rt.data, rt.actions, path, createRecorder);
    } catch (error) {
      await registry.uploads.remove(path);
      throw error;
    }
    return path;
  }

  return async function decodeAgainAs({ sessionId, format }: DecodeAgainAsRequest): Promise<SessionSummary> {
    const rt = runtimeOf(sessionId);
    const summary = summaryOf(rt);
    const { source, title, inline } = summary;
    if (source.kind === 'replay')
      throw new Error('A replay plays the bytes of the session it replays: decode that session again instead.');
    if (rt.harChoice) throw new Error('Choose the HAR entries to open before decoding them as another dialect');
    // Given credentials to answer its pause (`stream-inspector answer`), it may have legs the file does not.
    if (rt.answerable)
      throw new Error(
        'This session may have continued live after its file (its pause answered against the server): decoding the file again would leave those legs out. Save it as a recording and decode that.',
      );
    const request: OpenAgainRequest =
      source.kind === 'live'
        ? { path: await copyOfLiveRun(rt, summary), title, format, copyOf: { method: source.method, url: source.url } }
        : {
            path: source.path,
            title,
            format,
            ...(source.entries !== undefined ? { entries: source.entries } : {}),
            ...(source.report !== undefined ? { report: source.report } : {}),
            ...(source.copyOf !== undefined ? { copyOf: source.copyOf } : {}),
            ...(rt.upload !== undefined ? { upload: rt.upload } : {}),
          };
    let opened: SessionSummary;
    try {
      opened = await files.openAgain({ ...request, ...(inline !== undefined ? { inline } : {}) });
    } catch (error) {
      if (source.kind === 'live') await registry.uploads.remove(request.path);
      throw error;
    }
    // The copy goes with the session that reads it now, and is removed when that one closes.
    const copy = source.kind === 'live' ? request.path : rt.copy;
    if (copy !== undefined) runtimeOf(opened.id).copy = copy;
    rt.copy = undefined;
    rt.upload = undefined;
    await closeSession({ sessionId });
    return opened;
  };
}
