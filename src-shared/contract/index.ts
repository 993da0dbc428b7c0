export * from './inspector';
export type * from './payloads';
export type { Unsubscribe } from './define';
export { createSocketClient } from './socket-client';
export { socketUrlFor } from './browser-host';
