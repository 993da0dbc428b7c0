import type { Infer } from '../schema';
import { Count, Path, SessionId } from './common';
import * as s from '../schema';

/** The recording proxy: forwards a frontend's requests to its agent server, one session per event stream. */

export const ProxyStartRequest = s.object({
  /** Port on 127.0.0.1 (0: any free one). */
  port: s.number({ integer: true, min: 0, max: 65535 }),
  /** The agent server the frontend's requests go to. */
  target: s.string({ nonEmpty: true, max: 8192 }),
  /** Folder for one recording per event-stream session; absent: sessions are kept in memory only. */
  recordDir: s.optional(Path),
});
export type ProxyStartRequest = Infer<typeof ProxyStartRequest>;

/** One forwarded request. */
export const ProxyExchange = s.object({
  id: Count(),
  method: s.string({ max: 32 }),
  path: s.string({ max: 8192 }),
  startedAt: s.number(),
  status: s.optional(s.number({ integer: true })),
  contentType: s.optional(s.string({ max: 1024 })),
  bytes: Count(),
  endedAt: s.optional(s.number()),
  error: s.optional(s.string()),
  sessionId: s.optional(SessionId),
});
export type ProxyExchange = Infer<typeof ProxyExchange>;

export const ProxyState = s.object({
  url: s.string(),
  target: s.string(),
  recordDir: s.optional(s.string()),
  /** The latest exchanges, oldest first (capped). */
  exchanges: s.array(ProxyExchange, { max: 1000 }),
});
export type ProxyState = Infer<typeof ProxyState>;
