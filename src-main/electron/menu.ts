import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';
import type { ExportKind, HostCommand } from '../../src-shared/contract/payloads';
import { SAMPLES } from '../services/samples/catalogue';

/**
 * The application menu: File (Open, Open Recent, Open Sample, Save Recording, Export), Session (Connect,
 * Replay), and the standard Edit, View and Window menus. Items that act on the selected
 * session are forwarded to the renderer as host commands (it knows the selection).
 */
export interface MenuActions {
  open(): void;
  openPath(path: string): void;
  /** Opens one of the shipped samples (resources/samples) by id. */
  openSample(id: string): void;
  send(command: HostCommand): void;
  isDev: boolean;
}

const EXPORTS: [ExportKind, string][] = [
  ['envelopes-ndjson', 'Envelopes (NDJSON)…'],
  ['blocks-json', 'Blocks (JSON)…'],
  ['raw-sse', 'Raw stream bytes (.sse)…'],
];

export function buildMenu(recent: readonly string[], actions: MenuActions): Menu {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.open() },
        {
          label: 'Open Recent',
          submenu:
            recent.length > 0
              ? [
                  ...recent.map((path) => ({
                    label: basename(path),
                    sublabel: path,
                    click: () => actions.openPath(path),
                  })),
                  { type: 'separator' as const },
                  { role: 'clearRecentDocuments' as const },
                ]
              : [{ label: 'No recent files', enabled: false }],
        },
        {
          label: 'Open Sample',
          submenu: SAMPLES.map((sample) => ({
            label: sample.title,
            toolTip: sample.summary,
            click: () => actions.openSample(sample.id),
          })),
        },
        { type: 'separator' },
        { label: 'Save Recording…', accelerator: 'CmdOrCtrl+S', click: () => actions.send({ kind: 'save-recording' }) },
        {
          label: 'Export',
          submenu: EXPORTS.map(([exportKind, label]) => ({
            label,
            click: () => actions.send({ kind: 'export', exportKind }),
          })),
        },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Session',
      submenu: [
        { label: 'Connect…', accelerator: 'CmdOrCtrl+N', click: () => actions.send({ kind: 'connect' }) },
        { label: 'Replay', accelerator: 'CmdOrCtrl+Shift+R', click: () => actions.send({ kind: 'replay' }) },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(actions.isDev
          ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }]
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}

export function installMenu(recent: readonly string[], actions: MenuActions): void {
  Menu.setApplicationMenu(buildMenu(recent, actions));
  for (const path of recent) app.addRecentDocument(path);
}
