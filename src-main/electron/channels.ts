import { CHANNEL_PREFIX } from '../../src-shared/contract/inspector';

/**
 * The one IPC channel outside the contract. The preload sends on it the path of a file
 * dropped on the window: only the preload can see that path (webUtils.getPathForFile works
 * only on files the user really dropped or picked), and main grants it before the page opens
 * it through the contract's path-checked openFile.
 */
export const DROPPED_FILE_CHANNEL = `${CHANNEL_PREFIX}host/dropped-file`;
