import { describe, expect, it } from 'vitest';
import { createFakeService } from '../testing/fake-service';
import { sessionCommands } from './session-commands';

describe("a session's command façade", () => {
  it('sends every command with its own session id, whatever the caller passes', async () => {
    const fake = createFakeService();
    const commands = sessionCommands(fake.service, 's7');
    const sent = [
      commands.envelope(3),
      commands.frame(1, 4),
      commands.rawBytes({ leg: 0, byteStart: 10, byteEnd: 20 }),
      commands.block(2),
      commands.stats(),
      commands.setInline({ mode: 'xml', tools: [] }),
      commands.replayControl({ kind: 'pause' }),
      commands.startReplay({ speed: 2 }),
      commands.sendToolResults({ sessionId: 'other', results: [] } as never),
      commands.rename('Run A'),
      commands.runInFormats(['xml', 'json']),
    ];
    await Promise.allSettled(sent);
    expect(fake.calls).toEqual([
      { method: 'getEnvelope', arg: { sessionId: 's7', seq: 3 } },
      { method: 'getFrame', arg: { sessionId: 's7', leg: 1, seq: 4 } },
      { method: 'getRawBytes', arg: { sessionId: 's7', leg: 0, byteStart: 10, byteEnd: 20 } },
      { method: 'getBlock', arg: { sessionId: 's7', block: 2 } },
      { method: 'getStats', arg: { sessionId: 's7' } },
      { method: 'setInline', arg: { sessionId: 's7', inline: { mode: 'xml', tools: [] } } },
      { method: 'replayControl', arg: { sessionId: 's7', action: { kind: 'pause' } } },
      { method: 'startReplay', arg: { sessionId: 's7', speed: 2 } },
      { method: 'sendToolResults', arg: { sessionId: 's7', results: [] } },
      { method: 'renameSession', arg: { sessionId: 's7', title: 'Run A' } },
      { method: 'runInFormats', arg: { sessionId: 's7', formats: ['xml', 'json'] } },
    ]);
  });

  it("passes main's answer and its rejection through unchanged", async () => {
    const fake = createFakeService({
      getStats: () => Promise.resolve({ chunks: 4 }),
      getBlock: () => Promise.reject(new Error('no block 9')),
    });
    const commands = sessionCommands(fake.service, 's1');
    await expect(commands.stats()).resolves.toEqual({ chunks: 4 });
    await expect(commands.block(9)).rejects.toThrow('no block 9');
  });
});
