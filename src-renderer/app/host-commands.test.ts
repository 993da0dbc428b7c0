import { describe, expect, it } from 'vitest';
import type { HostCommand } from '../../src-shared/contract';
import { routeHostCommand, type HostCommandTarget } from './host-commands';

function target(active: string | null): { target: HostCommandTarget; done: string[] } {
  const done: string[] = [];
  return {
    done,
    target: {
      activeId: () => active,
      showSession: (id) => done.push(`show ${id}`),
      showConnect: () => done.push('connect'),
      saveRecording: (id) => done.push(`save ${id}`),
      exportSession: (id, kind) => done.push(`export ${id} ${kind}`),
      replay: (id) => done.push(`replay ${id}`),
      reportError: (context, error) => done.push(`error ${context}: ${String(error)}`),
    },
  };
}

const commands: [HostCommand, string, string][] = [
  [{ kind: 'select-session', sessionId: 'b' }, 'show b', 'show b'],
  [{ kind: 'connect' }, 'connect', 'connect'],
  [{ kind: 'save-recording' }, 'save a', 'error Save recording: Open or start a session first.'],
  [{ kind: 'export', exportKind: 'har' }, 'export a har', 'error Export: Open or start a session first.'],
  [{ kind: 'replay' }, 'replay a', 'error Replay: Open or start a session first.'],
];

describe('host commands', () => {
  it.each(commands)('%j acts on the active session, or says there is none', (command, withSession, without) => {
    const open = target('a');
    routeHostCommand(command, open.target);
    expect(open.done).toEqual([withSession]);
    const none = target(null);
    routeHostCommand(command, none.target);
    expect(none.done).toEqual([without]);
  });
});
