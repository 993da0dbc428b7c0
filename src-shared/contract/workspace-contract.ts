import { command } from './define';
import * as p from './payloads';
import * as s from './schema';

/**
 * What the app keeps in the user-data folder: saved requests, environments and recent
 * sessions. Answered by the host (the session worker refuses them); requests reach the
 * session service with their variables already filled in.
 */
export const WORKSPACE_CONTRACT = {
  listRequests: command(s.none(), s.array(p.SavedRequest)),
  saveRequest: command(p.SaveRequestInput, p.SavedRequest),
  deleteRequest: command(s.object({ id: p.SavedRequest.shape.id }), s.none()),
  /** Secret values are not in the answer: only whether each has one. */
  listEnvironments: command(s.none(), p.EnvironmentsState),
  saveEnvironment: command(p.EnvironmentInput, p.EnvironmentsState),
  deleteEnvironment: command(s.object({ id: p.EnvironmentView.shape.id }), p.EnvironmentsState),
  setActiveEnvironment: command(s.object({ id: s.nullable(p.EnvironmentView.shape.id) }), p.EnvironmentsState),
  /** The request with the active environment's values filled in as asked (for copy as curl); rejects naming an unknown variable. */
  resolveRequest: command(p.ResolveRequestInput, p.RequestTemplate),
  /** Live sessions of earlier runs, newest first, kept as recordings in the user-data folder. */
  listRecentSessions: command(s.none(), p.RecentSessions),
  openRecentSession: command(s.object({ id: p.RecentSession.shape.id }), p.SessionSummary),
  /** How many recent sessions to keep (0: none; older ones are deleted at once). */
  setRecentSessionsKeep: command(s.object({ keep: p.RecentSessions.shape.keep }), p.RecentSessions),
} as const;
