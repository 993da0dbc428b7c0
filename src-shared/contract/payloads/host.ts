import type { Infer } from '../schema';
import { DialectId } from './common';
import { ConnectRequest } from './sources';
import * as s from '../schema';

/** The app, its host and the embedded demo agent, the shipped samples. */

export const AppInfo = s.object({
  name: s.string(),
  version: s.string(),
  host: s.literal('electron', 'browser'),
  platform: s.string(),
  /** What this host can do: native dialogs (Electron) or uploads (browser). */
  capabilities: s.object({ fileDialogs: s.boolean(), upload: s.boolean(), dropPaths: s.boolean() }),
});
export type AppInfo = Infer<typeof AppInfo>;

export const DemoScenario = s.object({ id: s.string(), title: s.string(), description: s.optional(s.string()) });

export const DemoAgentInfo = s.nullable(
  s.object({
    baseUrl: s.string(),
    runUrl: s.string(),
    toolResultsUrl: s.string(),
    formats: s.array(s.string()),
    scenarios: s.array(DemoScenario),
    /** The provider APIs it serves (`/v1/messages`, `/v1/responses`), with their scenarios. */
    providers: s.array(
      s.object({
        id: s.string({ nonEmpty: true, max: 64 }),
        title: s.string(),
        url: s.string(),
        dialect: DialectId,
        scenarios: s.array(DemoScenario),
        /** The preset's request body (JSON text; the preset adds the chosen `scenario`) and headers. */
        sampleBody: s.string(),
        sampleHeaders: s.array(s.object({ name: s.string(), value: s.string() })),
      }),
    ),
    /** A ready-made connect request for the default scenario (what a newcomer runs first). */
    defaultRequest: ConnectRequest,
  }),
);
export type DemoAgentInfo = Infer<typeof DemoAgentInfo>;

/** A sample recording shipped with the app (resources/samples); some hold a pair of runs. */
export const SampleInfo = s.object({
  id: s.string({ nonEmpty: true, max: 64 }),
  title: s.string(),
  summary: s.string(),
  /** How many sessions opening it gives (2 for a pair to diff). */
  sessions: s.number({ integer: true, min: 1 }),
});
export type SampleInfo = Infer<typeof SampleInfo>;

/** Samples are named by id only: the host maps the id to its own files, never to a path. */
export const OpenSampleRequest = s.object({ id: s.string({ nonEmpty: true, max: 64 }) });
export type OpenSampleRequest = Infer<typeof OpenSampleRequest>;

export const ExternalUrl = s.object({ url: s.string({ nonEmpty: true, max: 8192 }) });
