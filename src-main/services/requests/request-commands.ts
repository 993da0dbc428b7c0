import type { InspectorService } from '../../../src-shared/contract/inspector';
import type { ConnectRequest, RequestTemplate } from '../../../src-shared/contract/payloads';
import { REDACTED, isSecretName, redactBody, redactUrl } from '../../../src-shared/recording/redact';
import { requestReferences, resolveRequest, type Variable } from '../../../src-shared/requests/variables';
import type { CollectionStore } from './collection-store';
import type { ActiveEnvironment, EnvironmentStore } from './environment-store';
import {
  approveFromStartup,
  BROWSER_HOST_HOW_TO_ALLOW,
  createSecretOriginGate,
  type SecretOriginGate,
} from './secret-origins';

export type RequestCommands = Pick<
  InspectorService,
  | 'listRequests'
  | 'saveRequest'
  | 'deleteRequest'
  | 'listEnvironments'
  | 'saveEnvironment'
  | 'deleteEnvironment'
  | 'setActiveEnvironment'
  | 'resolveRequest'
>;

/**
 * The saved requests and environments as contract commands, and the one place a request's
 * `{{variables}}` are filled before it is sent (`prepareConnect`): in main, so a secret typed
 * once never travels back to the renderer.
 */
export interface Requests extends RequestCommands {
  /** The request with the active environment's values, and the secret values it now holds (to be masked wherever it is shown or written). */
  prepareConnect(request: ConnectRequest): Promise<ConnectRequest>;
}

/** Without a host's own gate, secrets go only to this machine (what the browser host allows by default). */
const loopbackOnly = (): SecretOriginGate => createSecretOriginGate(approveFromStartup([]), BROWSER_HOST_HOW_TO_ALLOW);

export function createRequests(
  collection: CollectionStore,
  environments: EnvironmentStore,
  secretOrigins: SecretOriginGate = loopbackOnly(),
  builtins: () => readonly Variable[] = () => [],
): Requests {
  /**
   * The active environment's variables after the host's built-in ones (`{{demo_url}}`), which
   * an environment may redefine; failing on a referenced secret that cannot be opened.
   */
  const variablesFor = async (request: RequestTemplate) => {
    const environment = await environments.active();
    const own = new Set(environment.variables.map((v) => v.name));
    const active: ActiveEnvironment = {
      name: environment.name,
      variables: [...builtins().filter((b) => !own.has(b.name)), ...environment.variables],
    };
    const used = new Set(requestReferences(request));
    for (const v of active.variables) if (used.has(v.name) && v.problem !== undefined) throw new Error(v.problem);
    return {
      active,
      secrets: active.variables.filter((v) => v.secret && used.has(v.name)).map(({ name, value }) => ({ name, value })),
    };
  };

  return {
    listRequests: () => collection.list(),
    saveRequest: (input) => collection.save(input),
    deleteRequest: ({ id }) => collection.remove(id),
    listEnvironments: () => environments.state(),
    saveEnvironment: (input) => environments.save(input),
    deleteEnvironment: ({ id }) => environments.remove(id),
    setActiveEnvironment: ({ id }) => environments.setActive(id),

    async resolveRequest({ request, mode }) {
      if (mode === 'template') return withoutLiteralSecrets(request);
      const { active, secrets } = await variablesFor(request);
      const resolved = resolveRequest(
        request,
        active.variables,
        active.name,
        mode === 'with-secrets' ? 'wire' : 'masked',
      );
      if (mode !== 'with-secrets') return withoutLiteralSecrets(resolved);
      // The values go to the page (a curl command): only for a destination main approved.
      await secretOrigins.check(resolved.url, secrets);
      return resolved;
    },

    async prepareConnect(request) {
      if (requestReferences(request).length === 0) return request;
      const { active, secrets: secretValues } = await variablesFor(request);
      const wire = resolveRequest(request, active.variables, active.name, 'wire');
      await secretOrigins.check(wire.url, secretValues);
      return { ...wire, ...(secretValues.length > 0 ? { secretValues } : {}) };
    },
  };
}

/**
 * The project's redaction policy (src-shared/recording/redact.ts) over what was typed as a
 * value: a header, URL parameter or JSON field whose name looks secret is redacted, unless
 * its value is a `{{variable}}` reference (a name, not a secret).
 */
export function withoutLiteralSecrets(request: RequestTemplate): RequestTemplate {
  const hasReference = (text: string): boolean => requestReferences({ url: text, headers: [] }).length > 0;
  const headers = request.headers.map(([name, value]): [string, string] => [
    name,
    isSecretName(name) && !hasReference(value) ? REDACTED : value,
  ]);
  const url = hasReference(request.url) ? request.url : redactUrl(request.url);
  let body = request.body;
  if (body && !hasReference(body.text)) {
    const contentType =
      request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ??
      (body.kind === 'json' ? 'application/json' : '');
    body = { ...body, text: redactBody(body.text, contentType) ?? '' };
  }
  return { ...request, url, headers, ...(body ? { body } : {}) };
}
