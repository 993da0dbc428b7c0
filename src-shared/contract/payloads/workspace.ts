import type { Infer } from '../schema';
import { Count, DialectId } from './common';
import { RequestTemplate } from './sources';
import { EndStatus } from './sessions';
import * as s from '../schema';

/** Saved requests, environments and recent sessions (the user-data folder). */

const ItemId = s.string({ nonEmpty: true, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const ItemName = s.string({ nonEmpty: true, max: 200 });

export const SavedRequest = s.object({
  id: ItemId,
  name: ItemName,
  request: RequestTemplate,
  createdAt: s.number(),
  updatedAt: s.number(),
});
export type SavedRequest = Infer<typeof SavedRequest>;
/** Without an id: a new saved request; with one: that request replaced. */
export const SaveRequestInput = s.object({ id: s.optional(ItemId), name: ItemName, request: RequestTemplate });
export type SaveRequestInput = Infer<typeof SaveRequestInput>;

export const VariableName = s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ });

/** A variable as the renderer sees it: a secret's value never leaves main, only whether it has one. */
export const VariableView = s.object({
  name: VariableName,
  secret: s.boolean(),
  value: s.optional(s.string({ max: 64 * 1024 })),
  hasValue: s.boolean(),
});
export type VariableView = Infer<typeof VariableView>;
export const EnvironmentView = s.object({ id: ItemId, name: ItemName, variables: s.array(VariableView, { max: 500 }) });
export type EnvironmentView = Infer<typeof EnvironmentView>;

/** An edited variable; a secret without `value` keeps the one main holds. */
export const VariableInput = s.object({
  name: VariableName,
  secret: s.boolean(),
  value: s.optional(s.string({ max: 64 * 1024 })),
});
export type VariableInput = Infer<typeof VariableInput>;
export const EnvironmentInput = s.object({
  id: s.optional(ItemId),
  name: ItemName,
  variables: s.array(VariableInput, { max: 500 }),
});
export type EnvironmentInput = Infer<typeof EnvironmentInput>;

export const EnvironmentsState = s.object({
  environments: s.array(EnvironmentView),
  activeId: s.nullable(ItemId),
  /** How secret values are kept on this host, said plainly to the user. */
  secretStorage: s.object({ encrypted: s.boolean(), description: s.string() }),
});
export type EnvironmentsState = Infer<typeof EnvironmentsState>;

/** How a request is filled before it is copied as curl: references kept, or filled with secrets masked, or filled whole. */
export const ResolveRequestInput = s.object({
  request: RequestTemplate,
  mode: s.literal('template', 'resolved', 'with-secrets'),
});
export type ResolveRequestInput = Infer<typeof ResolveRequestInput>;

export const RecentSession = s.object({
  id: ItemId,
  title: s.string(),
  format: s.nullable(DialectId),
  end: s.optional(EndStatus),
  method: s.string(),
  url: s.string(),
  envelopes: Count(),
  bytes: Count(),
  createdAt: s.number(),
  endedAt: s.number(),
});
export type RecentSession = Infer<typeof RecentSession>;

/** The recent sessions kept, and the setting that bounds them (0: none kept). */
export const RecentSessions = s.object({
  sessions: s.array(RecentSession),
  keep: s.number({ integer: true, min: 0, max: 500 }),
  folder: s.string(),
});
export type RecentSessions = Infer<typeof RecentSessions>;
