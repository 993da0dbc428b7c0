import { createEmitter } from '../../src-shared/contract/emitter';

/** Shortcuts and moves the shell or one view asks of another (focus the filter or the table, follow the stream). */
export type UiCommand = 'focus-filter' | 'focus-table' | 'follow';

export const uiCommands = createEmitter<UiCommand>();
