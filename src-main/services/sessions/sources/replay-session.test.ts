import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../testing/fixtures';
import { openSource } from '../../importers';
import { createSessionRegistry, type SessionRegistry } from '../session-registry';
import { waitFor } from '../service-testing';
import { createFileSessions } from './file-session';
import { createReplaySessions } from './replay-session';

let registry: SessionRegistry | undefined;

afterEach(async () => {
  for (const rt of registry?.sessions.values() ?? []) {
    await rt.replay?.dispose();
    rt.data.dispose();
  }
  registry?.dispose();
  registry = undefined;
});

function setup() {
  registry = createSessionRegistry({ openSource, batchIntervalMs: 5 });
  return { registry, files: createFileSessions(registry), replays: createReplaySessions(registry) };
}

describe('replay sessions', () => {
  it('refuses to replay a session that is still receiving', async () => {
    const { files, replays } = setup();
    const opened = await files.openFile({ path: fixturePath('example_1.json.sse') });
    expect(() => replays.startReplay({ sessionId: opened.id })).toThrow(
      'The session is still receiving; replay it once it has ended.',
    );
  });

  it('plays a finished session into a new one, named after it, to the same envelopes', async () => {
    const { registry, files, replays } = setup();
    const opened = await files.openFile({ path: fixturePath('example_1.json.sse') });
    const source = await waitFor(
      () => (registry.runtimeOf(opened.id).loading ? undefined : registry.runtimeOf(opened.id).data),
      'the file',
    );
    const states: boolean[] = [];
    registry.events.replayState.event((state) => states.push(state.finished));
    const replay = replays.startReplay({ sessionId: opened.id, instant: true });
    expect(replay).toMatchObject({ title: 'Replay of example_1.json.sse', source: { kind: 'replay', of: opened.id } });
    const played = await waitFor(
      () => (registry.runtimeOf(replay.id).data.state === 'complete' ? registry.runtimeOf(replay.id).data : undefined),
      'the replay to finish',
    );
    expect(played.envelopeCount).toBe(source.envelopeCount);
    expect(states.at(-1)).toBe(true);
  });

  it('takes transport commands only for a replay', async () => {
    const { files, replays } = setup();
    const opened = await files.openFile({ path: fixturePath('example_1.json.sse') });
    await expect(replays.replayControl({ sessionId: opened.id, action: { kind: 'pause' } })).rejects.toThrow(
      `Session ${opened.id} is not a replay; start one with startReplay`,
    );
  });
});
