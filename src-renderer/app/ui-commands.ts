import { createEmitter } from '../../src-shared/contract/emitter';

/** Shortcuts the shell receives but a view carries out (focus its filter, follow the stream). */
export type UiCommand = 'focus-filter' | 'follow';

export const uiCommands = createEmitter<UiCommand>();
