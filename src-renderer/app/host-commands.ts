import type { DownloadKind, HostCommand } from '../../src-shared/contract';

/** What the host's menu commands act on. */
export interface HostCommandTarget {
  activeId(): string | null;
  showSession(sessionId: string): void;
  showConnect(): void;
  saveRecording(sessionId: string): void;
  exportSession(sessionId: string, kind: DownloadKind): void;
  replay(sessionId: string): void;
  reportError(context: string, error: unknown): void;
}

/** A command the host sends (the desktop app's menu): each acts on the active session, or says there is none. */
export function routeHostCommand(command: HostCommand, target: HostCommandTarget): void {
  if (command.kind === 'select-session') return target.showSession(command.sessionId);
  if (command.kind === 'connect') return target.showConnect();
  const current = target.activeId();
  const context = HOST_COMMAND_CONTEXT[command.kind];
  if (!current) return target.reportError(context, 'Open or start a session first.');
  switch (command.kind) {
    case 'save-recording':
      return target.saveRecording(current);
    case 'export':
      return target.exportSession(current, command.exportKind);
    case 'replay':
      return target.replay(current);
  }
}

const HOST_COMMAND_CONTEXT: Record<Exclude<HostCommand['kind'], 'select-session' | 'connect'>, string> = {
  'save-recording': 'Save recording',
  export: 'Export',
  replay: 'Replay',
};
