import { describe, expect, it } from 'vitest';
import type {
  ConnectRequest,
  DemoAgentInfo,
  DownloadFile,
  SaveRequestInput,
  SavedRequest,
  SessionSummary,
} from '../../src-shared/contract';
import { createManualScheduler } from '../model/scheduler';
import { createStore } from '../model/store';
import { createFakeService, settle, summary } from '../testing/fake-service';
import { createApp, type AppDeps } from './composition';

const demo: NonNullable<DemoAgentInfo> = {
  baseUrl: 'http://127.0.0.1:5000',
  runUrl: 'http://127.0.0.1:5000/agent/run',
  toolResultsUrl: 'http://127.0.0.1:5000/agent/tool_results',
  formats: ['json', 'xml', 'raw'],
  scenarios: [],
  providers: [],
  defaultRequest: { url: 'http://127.0.0.1:5000/agent/run', method: 'POST', headers: [], title: 'Demo agent: Tour' },
};

function setup(
  options: {
    sessions?: SessionSummary[];
    autoConnectDemo?: boolean;
    commands?: Parameters<typeof createFakeService>[0];
    fileDialogs?: boolean;
    /** What an earlier run stored (localStorage). */
    storage?: Map<string, string>;
  } = {},
) {
  const fileDialogs = options.fileDialogs ?? false;
  const fake = createFakeService({
    getAppInfo: () =>
      Promise.resolve({
        name: 'ASI',
        version: '1',
        host: fileDialogs ? 'electron' : 'browser',
        platform: 'linux',
        capabilities: { fileDialogs, upload: !fileDialogs, dropPaths: fileDialogs },
      }),
    getDemoAgent: () => Promise.resolve(demo),
    listSessions: () => Promise.resolve(options.sessions ?? []),
    listRecentFiles: () => Promise.resolve(['/tmp/a.sse']),
    listSamples: () => Promise.resolve([{ id: 'pair', title: 'A pair', summary: 'Two runs', sessions: 2 }]),
    getSession: (arg: { sessionId: string }) =>
      Promise.resolve({ summary: summary(arg.sessionId), request: null, legs: [], agents: [], pendingTools: null }),
    getBlocks: () => Promise.resolve([]),
    getDiagnostics: () => Promise.resolve([]),
    getProxy: () => Promise.resolve(null),
    listRequests: () => Promise.resolve([]),
    listEnvironments: () =>
      Promise.resolve({ environments: [], activeId: null, secretStorage: { encrypted: false, description: 'plain' } }),
    listRecentSessions: () => Promise.resolve({ sessions: [], keep: 20, folder: '/tmp/recent' }),
    ...options.commands,
  });
  const storage = options.storage ?? new Map<string, string>();
  const systemTheme = createStore<'dark' | 'light'>('dark');
  const scheduler = createManualScheduler();
  const downloads: DownloadFile[] = [];
  const deps: AppDeps = {
    service: fake.service,
    bridgeKind: 'browser',
    bridgeStatus: createStore({ connected: true, reason: null }),
    scheduler,
    systemTheme,
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    now: () => 42,
    download: (file) => downloads.push(file),
    ...(options.autoConnectDemo !== undefined ? { autoConnectDemo: options.autoConnectDemo } : {}),
  };
  const app = createApp(deps);
  const stop = app.start();
  return { app, fake, storage, scheduler, stop, downloads, systemTheme };
}

describe('composition root', () => {
  it("shows the system's theme until the user chooses one, and remembers the choice", () => {
    const { app, storage, systemTheme, stop } = setup();
    expect(app.theme.getSnapshot()).toBe('dark');
    systemTheme.set('light');
    expect(app.theme.getSnapshot()).toBe('light');
    app.prefs.update((p) => ({ ...p, theme: 'dark' }));
    expect(app.theme.getSnapshot()).toBe('dark');
    systemTheme.set('dark');
    systemTheme.set('light');
    expect(app.theme.getSnapshot()).toBe('dark');
    stop();
    const again = setup({ storage });
    expect(again.app.prefs.getSnapshot().theme).toBe('dark');
    expect(again.app.theme.getSnapshot()).toBe('dark');
    again.stop();
  });

  it('loads the host, the demo preset and the recent files on start', async () => {
    const { app } = setup();
    await settle();
    expect(app.host.getSnapshot().info?.host).toBe('browser');
    expect(app.host.getSnapshot().demo?.runUrl).toBe(demo.runUrl);
    expect(app.connectForm.getSnapshot()).toMatchObject({ preset: 'demo', url: demo.runUrl });
    expect(app.recentFiles.getSnapshot()).toEqual(['/tmp/a.sse']);
    expect(app.samples.getSnapshot().map((s) => s.id)).toEqual(['pair']);
    expect(app.view.getSnapshot()).toBe('connect');
  });

  it('opens a sample by id: every session it holds is listed, the first is shown', async () => {
    const { app, fake } = setup({
      commands: {
        openSample: () => Promise.resolve([summary('xml', { createdAt: 1 }), summary('json', { createdAt: 2 })]),
      },
    });
    await settle();
    const shown = await app.openSample('pair');
    expect(fake.calls.find((c) => c.method === 'openSample')?.arg).toEqual({ id: 'pair' });
    expect(shown?.id).toBe('xml');
    expect(
      app.sessions
        .getSnapshot()
        .list.map((s) => s.id)
        .sort(),
    ).toEqual(['json', 'xml']);
    expect(app.sessions.getSnapshot().activeId).toBe('xml');
    expect(app.view.getSnapshot()).toBe('timeline');
  });

  it('reports a sample that cannot be opened and stays where it was', async () => {
    const { app } = setup({
      commands: { openSample: () => Promise.reject(new Error("There is no sample named 'gone'.")) },
    });
    await settle();
    expect(await app.openSample('gone')).toBeUndefined();
    expect(app.errors.getSnapshot()).toMatchObject([
      { context: 'Open sample', message: "There is no sample named 'gone'." },
    ]);
    expect(app.view.getSnapshot()).toBe('connect');
  });

  it('opens the newest existing session in the timeline', async () => {
    const { app } = setup({ sessions: [summary('old', { createdAt: 1 }), summary('new', { createdAt: 2 })] });
    await settle();
    expect(app.sessions.getSnapshot().activeId).toBe('new');
    expect(app.view.getSnapshot()).toBe('timeline');
  });

  it('connects to the demo agent on a first start when asked to', async () => {
    const { app, fake } = setup({
      autoConnectDemo: true,
      commands: { connect: () => Promise.resolve(summary('live1')) },
    });
    await settle();
    expect(fake.calls.find((c) => c.method === 'connect')?.arg).toEqual(demo.defaultRequest);
    expect(app.sessions.getSnapshot().activeId).toBe('live1');
    expect(app.view.getSnapshot()).toBe('blocks');
  });

  it('lets an error about an action go when the user moves to another session; a session keeps its own', async () => {
    const { app } = setup({
      sessions: [summary('a'), summary('b', { createdAt: 5 })],
      commands: { openFile: () => Promise.reject(new Error('not a recording')) },
    });
    await settle();
    await app.openPath('/tmp/x.bin');
    app.reportError('Send tool results', new Error('refused'), 'b');
    expect(app.sessions.getSnapshot().activeId).toBe('a');
    app.setActiveSession('a');
    expect(app.errors.getSnapshot().map((e) => e.context)).toEqual(['Open file', 'Send tool results']);
    app.setActiveSession('b');
    expect(app.errors.getSnapshot().map((e) => e.context)).toEqual(['Send tool results']);
  });

  it("keeps the recording proxy's state current: loaded on start, then from main's events", async () => {
    const running = { url: 'http://127.0.0.1:4000', target: 'http://127.0.0.1:5000/', exchanges: [] };
    const { app, fake } = setup({ commands: { getProxy: () => Promise.resolve(running) } });
    await settle();
    expect(app.proxy.getSnapshot()).toEqual(running);
    const exchange = {
      id: 1,
      method: 'GET',
      path: '/agent/scenarios',
      startedAt: 1,
      status: 200,
      bytes: 10,
      endedAt: 2,
    };
    fake.fire('onProxyChanged', { ...running, exchanges: [exchange] });
    expect(app.proxy.getSnapshot()?.exchanges).toEqual([exchange]);
    fake.fire('onProxyChanged', null);
    expect(app.proxy.getSnapshot()).toBeNull();
  });

  it('shows errors from main in place and dismisses them', async () => {
    const { app, fake } = setup();
    await settle();
    fake.fire('onError', {
      sessionId: 's1',
      kind: 'content-type',
      message: 'Expected text/event-stream, got text/html',
      at: 1,
    });
    expect(app.errors.getSnapshot()).toMatchObject([
      { context: 'Not a stream', message: 'Expected text/event-stream, got text/html', sessionId: 's1' },
    ]);
    app.dismissError(app.errors.getSnapshot()[0]!.id);
    expect(app.errors.getSnapshot()).toEqual([]);
  });

  it('reports a rejected command instead of swallowing it, and stays on the form', async () => {
    const { app } = setup({
      commands: { connect: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) },
    });
    await settle();
    const result = await app.connect({ url: 'http://127.0.0.1:9/', method: 'GET', headers: [] });
    expect(result).toBeUndefined();
    expect(app.errors.getSnapshot()).toMatchObject([
      { context: 'Connect', message: 'connect ECONNREFUSED 127.0.0.1:9' },
    ]);
    expect(app.view.getSnapshot()).toBe('connect');
  });

  it('follows the host: select a session from the menu, save with nothing open reports why', async () => {
    const { app, fake } = setup({ sessions: [summary('a'), summary('b', { createdAt: 5 })] });
    await settle();
    fake.fire('onHostCommand', { kind: 'select-session', sessionId: 'a' });
    expect(app.sessions.getSnapshot().activeId).toBe('a');
    app.setActiveSession(null);
    fake.fire('onHostCommand', { kind: 'save-recording' });
    expect(app.errors.getSnapshot().at(-1)).toMatchObject({
      context: 'Save recording',
      message: 'Open or start a session first.',
    });
  });

  it('selects rows across views: reveal opens the timeline, highlightBytes opens the bytes tab', async () => {
    const { app } = setup({ sessions: [summary('a')] });
    await settle();
    app.navigate('diagnostics');
    app.selectRow(7);
    expect(app.view.getSnapshot()).toBe('timeline');
    expect(app.selection.getSnapshot()).toMatchObject({ sessionId: 'a', row: 7, revealRevision: 1 });
    app.highlightBytes(0, 100, 120);
    expect(app.selection.getSnapshot().bytes).toEqual({ leg: 0, start: 100, end: 120 });
    expect(app.prefs.getSnapshot()).toMatchObject({ detailOpen: true, detailTab: 'bytes' });
    app.navigate('blocks');
    app.selectEnvelopes([9, 3, 5, 3], { block: 2, reveal: false });
    expect(app.view.getSnapshot()).toBe('blocks');
    expect(app.selection.getSnapshot()).toMatchObject({ row: 3, envelopes: [3, 5, 9], block: 2, bytes: null });
    app.setActiveSession(null);
    expect(app.selection.getSnapshot()).toMatchObject({ sessionId: null, row: null, envelopes: [] });
  });

  it('remembers the connect form, and confirmations dismiss themselves', async () => {
    const { app, storage, scheduler } = setup({
      fileDialogs: true,
      commands: { saveRecording: () => Promise.resolve({ path: '/tmp/r.jsonl', bytes: 2048 }) },
    });
    await settle();
    app.connectForm.update((f) => ({ ...f, url: 'http://remembered.test/run' }));
    expect(storage.get('asi.connectForm')).toContain('remembered.test');
    await app.saveRecording('s1');
    expect(app.errors.getSnapshot()).toMatchObject([
      { context: 'Saved', level: 'info', message: 'Recording saved to /tmp/r.jsonl (2.0 kB)' },
    ]);
    scheduler.advance(10_000);
    expect(app.errors.getSnapshot()).toEqual([]);
  });

  it('saves and exports as downloads where the host has no save dialog (the browser host)', async () => {
    const asked: unknown[] = [];
    const file = (kind: string): DownloadFile => ({
      fileName: `run.${kind}`,
      mimeType: 'text/plain',
      bytes: 3,
      base64: 'YWJj',
    });
    const { app, downloads } = setup({
      commands: {
        downloadSession: (arg: { sessionId: string; kind: string }) => (
          asked.push(arg),
          Promise.resolve(file(arg.kind))
        ),
        saveRecording: () => Promise.reject(new Error('Choose where to save the recording')),
      },
    });
    await settle();
    await app.saveRecording('s1');
    await app.exportSession('s1', 'har');
    expect(asked).toEqual([
      { sessionId: 's1', kind: 'recording' },
      { sessionId: 's1', kind: 'har' },
    ]);
    expect(downloads.map((d) => d.fileName)).toEqual(['run.recording', 'run.har']);
    expect(app.errors.getSnapshot().map((e) => [e.level, e.message])).toEqual([
      ['info', 'run.recording (3 B) is downloading.'],
      ['info', 'run.har (3 B) is downloading.'],
    ]);
  });

  it('stops listening to main when torn down', async () => {
    const { fake, stop } = setup();
    await settle();
    expect(fake.listeners('onSessionBatch')).toBe(1);
    stop();
    expect(fake.listeners('onSessionBatch')).toBe(0);
  });
});

describe('saved requests', () => {
  it('saves the form, updates it on the next save, duplicates, renames, deletes, and runs one under its name', async () => {
    const saved: SavedRequest[] = [];
    let n = 0;
    const { app, fake } = setup({
      commands: {
        listRequests: () => Promise.resolve([...saved]),
        saveRequest: (input: SaveRequestInput) => {
          const entry: SavedRequest = {
            id: input.id ?? `r${++n}`,
            name: input.name,
            request: input.request,
            createdAt: 1,
            updatedAt: 1,
          };
          const at = saved.findIndex((r) => r.id === entry.id);
          if (at >= 0) saved[at] = entry;
          else saved.push(entry);
          return Promise.resolve(entry);
        },
        deleteRequest: ({ id }: { id: string }) =>
          Promise.resolve(
            void saved.splice(
              saved.findIndex((r) => r.id === id),
              1,
            ),
          ),
        connect: (request: ConnectRequest) => Promise.resolve(summary('s9', { title: request.title ?? '' })),
      },
    });
    await settle();
    app.connectForm.update((f) => ({
      ...f,
      preset: 'custom',
      url: '{{base_url}}/agent/run',
      bodyKind: 'none',
      title: '',
    }));
    const first = await app.saveFormAsRequest();
    expect(first?.name).toBe('POST /agent/run on {{base_url}}');
    expect(app.connectForm.getSnapshot().savedId).toBe(first?.id);
    app.connectForm.update((f) => ({ ...f, method: 'PUT' }));
    await app.saveFormAsRequest();
    expect(app.requests.getSnapshot()).toHaveLength(1);
    expect(app.requests.getSnapshot()[0]?.request.method).toBe('PUT');
    await app.duplicateRequest(first?.id ?? '');
    expect(app.requests.getSnapshot().map((r) => r.name)).toEqual([
      'POST /agent/run on {{base_url}}',
      'POST /agent/run on {{base_url}} copy',
    ]);
    await app.renameRequest(first?.id ?? '', 'Demo run');
    expect(app.requests.getSnapshot()[0]?.name).toBe('Demo run');
    await app.runRequest(first?.id ?? '');
    expect(fake.calls.find((c) => c.method === 'connect')?.arg).toMatchObject({
      url: '{{base_url}}/agent/run',
      method: 'PUT',
      title: 'Demo run',
    });
    await app.deleteRequest(first?.id ?? '');
    expect(app.connectForm.getSnapshot().savedId).toBeNull();
    expect(app.requests.getSnapshot()).toHaveLength(1);
  });

  it('copy as curl asks main to fill the request as chosen; a paste becomes a saved request', async () => {
    const saved: SavedRequest = {
      id: 'r1',
      name: 'Run',
      request: { url: '{{base_url}}/run', method: 'GET', headers: [['Authorization', 'Bearer {{token}}']] },
      createdAt: 1,
      updatedAt: 1,
    };
    const { app, fake } = setup({
      commands: {
        listRequests: () => Promise.resolve([saved]),
        resolveRequest: ({ request }: { request: SavedRequest['request'] }) =>
          Promise.resolve({ ...request, url: 'http://h/run' }),
        saveRequest: (input: SaveRequestInput) => Promise.resolve({ id: 'r2', ...input, createdAt: 1, updatedAt: 1 }),
      },
    });
    await settle();
    expect(await app.requestAsCurl('r1', 'resolved')).toBe("curl -N http://h/run -H 'Authorization: Bearer {{token}}'");
    expect(fake.calls.find((c) => c.method === 'resolveRequest')?.arg).toMatchObject({ mode: 'resolved' });
    const imported = await app.importCurl("curl http://x:1/stream -H 'Accept: text/event-stream'");
    expect(imported?.name).toBe('GET /stream on x:1');
    await app.importCurl('curl "http://x');
    expect(app.errors.getSnapshot().at(-1)).toMatchObject({ context: 'Import curl' });
  });
});
