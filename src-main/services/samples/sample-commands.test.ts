import { afterEach, describe, expect, it } from 'vitest';
import { untilSettled } from '../../cli/commands/record';
import { createDefaultSessionService } from '../../hosts/default-service';
import type { SessionService } from '../sessions/session-service';
import { SAMPLES } from './catalogue';
import { PROJECT_SAMPLES_DIR, sampleCommands } from './sample-commands';

let service: SessionService | undefined;
afterEach(async () => {
  await service?.dispose();
  service = undefined;
});

function commands() {
  service = createDefaultSessionService();
  return { service, samples: sampleCommands(service, PROJECT_SAMPLES_DIR) };
}

describe('sample commands', () => {
  it('lists every sample with the number of sessions it opens', async () => {
    const list = await commands().samples.listSamples();
    expect(list.map((s) => s.id)).toEqual(SAMPLES.map((s) => s.id));
    expect(list.find((s) => s.id === 'xml-vs-json')).toMatchObject({
      title: 'One run in XML and in JSON',
      sessions: 2,
    });
  });

  it('opens a pair as two sessions, titled by their format, decoded in full', async () => {
    const { service, samples } = commands();
    const opened = await samples.openSample({ id: 'xml-vs-json' });
    expect(opened.map((s) => s.title)).toEqual([
      'One run in XML and in JSON — XML',
      'One run in XML and in JSON — JSON',
    ]);
    const settled = await Promise.all(opened.map((s) => untilSettled(service, s.id)));
    expect(settled.map((s) => s.state)).toEqual(['complete', 'complete']);
    expect(settled.every((s) => s.envelopes > 0)).toBe(true);
  });

  it('opens the faulty sample with its findings', async () => {
    const { service, samples } = commands();
    const [opened] = await samples.openSample({ id: 'faulty-stream' });
    await untilSettled(service, opened!.id);
    const rules = (await service.getDiagnostics({ sessionId: opened!.id })).map((d) => d.rule);
    expect(rules).toEqual(expect.arrayContaining(['sse.unterminated-event', 'stream.missing-done']));
  });

  it('refuses an id that is not a sample, whatever it looks like', async () => {
    const { samples } = commands();
    await expect(samples.openSample({ id: '../../package.json' })).rejects.toThrow(
      "There is no sample named '../../package.json'.",
    );
    await expect(samples.openSample({ id: 'multi-agent.recording' })).rejects.toThrow(/no sample named/);
  });
});
