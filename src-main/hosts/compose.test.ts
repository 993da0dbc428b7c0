import { describe, expect, it } from 'vitest';
import { HOST_CONTRACT } from '../../src-shared/contract/host-contract';
import {
  HOST_NAMES,
  INSPECTOR_CONTRACT,
  INSPECTOR_NAMES,
  SESSION_NAMES,
  WORKSPACE_NAMES,
} from '../../src-shared/contract/inspector';
import { SESSION_CONTRACT } from '../../src-shared/contract/session-contract';
import { WORKSPACE_CONTRACT } from '../../src-shared/contract/workspace-contract';
import { HOST_ONLY, WORKSPACE_HOST_ONLY } from '../services/sessions/worker/protocol';
import { composeInspector, type HostCommands, type SessionCommands, type WorkspaceCommands } from './compose';

type Owner = 'host' | 'workspace' | 'session';
const OWNERS = { host: HOST_NAMES, workspace: WORKSPACE_NAMES, session: SESSION_NAMES } as const;
const all = (names: { commands: readonly string[]; events: readonly string[] }): string[] => [
  ...names.commands,
  ...names.events,
];

/** A stand-in for one owner: every member answers with its owner and name, so a test sees where a call went. */
function owner<T>(who: Owner, extra: Record<string, unknown> = {}): T {
  const out: Record<string, unknown> = { ...extra };
  for (const name of all(OWNERS[who])) out[name] = (arg: unknown) => Promise.resolve({ who, name, arg });
  return out as T;
}

describe('the contract split by owner', () => {
  it('gives every key of the contract exactly one owner', () => {
    const keys = [...Object.keys(HOST_CONTRACT), ...Object.keys(WORKSPACE_CONTRACT), ...Object.keys(SESSION_CONTRACT)];
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(INSPECTOR_CONTRACT).sort());
    expect([...all(HOST_NAMES), ...all(WORKSPACE_NAMES), ...all(SESSION_NAMES)].sort()).toEqual(
      all(INSPECTOR_NAMES).sort(),
    );
  });

  it('routes each command to the owner whose contract declares it', async () => {
    const workspace = owner<WorkspaceCommands>('workspace', {
      prepareConnect: (request: unknown) => Promise.resolve({ ...(request as object), prepared: true }),
    });
    const service = composeInspector(
      owner<SessionCommands>('session'),
      owner<HostCommands>('host'),
      workspace,
    ) as unknown as Record<string, (arg?: unknown) => Promise<{ who: Owner; name: string }>>;
    for (const who of ['host', 'workspace', 'session'] as const) {
      for (const name of all(OWNERS[who])) expect(await service[name]!('x'), name).toMatchObject({ who, name });
    }
  });

  it('fills a connect request through the workspace first, and lets a host save files itself', async () => {
    const workspace = owner<WorkspaceCommands>('workspace', {
      prepareConnect: (request: object) => Promise.resolve({ ...request, prepared: true }),
    });
    const hostSaves = owner<HostCommands>('host', {
      saveRecording: () => Promise.resolve('host saved'),
      exportSession: undefined,
    });
    const service = composeInspector(owner<SessionCommands>('session'), hostSaves, workspace);
    expect(await service.connect({ url: 'u', method: 'GET', headers: [] })).toMatchObject({
      who: 'session',
      arg: { prepared: true },
    });
    expect(await service.saveRecording({ sessionId: 's' })).toBe('host saved');
    expect(await service.exportSession({ sessionId: 's', kind: 'raw-sse' })).toMatchObject({
      who: 'session',
      name: 'exportSession',
    });
  });

  it('has the session worker refuse every host and workspace command, and keep their events silent', async () => {
    for (const [stand, names] of [
      [HOST_ONLY, HOST_NAMES],
      [WORKSPACE_HOST_ONLY, WORKSPACE_NAMES],
    ] as const) {
      const members = stand as unknown as Record<string, (arg?: unknown) => unknown>;
      for (const name of names.commands) await expect(members[name]!(), name).rejects.toThrow(/answered by the host/);
      for (const name of names.events) expect(typeof members[name]!(() => {})).toBe('function');
    }
    expect(await WORKSPACE_HOST_ONLY.prepareConnect({ url: 'u', method: 'GET', headers: [] })).toEqual({
      url: 'u',
      method: 'GET',
      headers: [],
    });
  });
});
