import { CHANNEL_PREFIX } from '../../src-shared/contract/inspector';

/**
 * The two IPC channels outside the contract, both sent on by the preload only. On this one,
 * the path of a file
 * dropped on the window: only the preload can see that path (webUtils.getPathForFile works
 * only on files the user really dropped or picked), and main grants it before the page opens
 * it through the contract's path-checked openFile.
 */
export const DROPPED_FILE_CHANNEL = `${CHANNEL_PREFIX}host/dropped-file`;

/**
 * The preload's acknowledgement of each contract event it received (event-acks.ts): how main
 * knows a window's page still takes its messages, which IPC does not say.
 */
export const EVENT_ACK_CHANNEL = `${CHANNEL_PREFIX}host/event-ack`;
