export * from './inspector';
export type * from './payloads';
export type { Listener, Unsubscribe, ServiceOf } from './define';
export { createSocketClient, type SocketClient, type SocketLike } from './socket-client';
export { socketUrlFor } from './browser-host';
