import type { IncomingMessage } from 'node:http';

/** What Express adds to a request it routed. */
interface RoutedRequest extends IncomingMessage {
  baseUrl?: string;
  route?: { path?: unknown };
}

/**
 * The route template that answered a request, in OpenAPI's form (`/api/v1/entities/{id}`), or
 * undefined when no route matched (never the path itself: ids and tokens stay out of names).
 */
export function routeTemplate(request: IncomingMessage): string | undefined {
  const { route, baseUrl } = request as RoutedRequest;
  if (typeof route?.path !== 'string') return undefined;
  return templateOf(`${baseUrl ?? ''}${route.path}`);
}

/**
 * An Express route path in OpenAPI's form; undefined for a catch-all (`/api*path`, SCIM's unknown
 * paths, the web UI's pages), which is no route of its own.
 */
function templateOf(path: string): string | undefined {
  if (path.includes('*')) return undefined;
  return path.replace(/:(\w+)/g, '{$1}') || '/';
}

/** A route of the application: its template and method. */
export interface RouteOfApp {
  route: string;
  method: string;
}

/** Every route an Express application has (after Nest registered them), as template and method. */
export function routesOf(expressApp: unknown): RouteOfApp[] {
  const router = (expressApp as { router?: { stack?: unknown[] } }).router;
  const routes = new Map<string, RouteOfApp>();
  for (const layer of router?.stack ?? []) {
    const route = (layer as { route?: { path?: unknown; methods?: Record<string, boolean> } })
      .route;
    if (typeof route?.path !== 'string') continue;
    const template = templateOf(route.path);
    if (!template) continue;
    for (const [method, on] of Object.entries(route.methods ?? {})) {
      const upper = method.toUpperCase();
      if (on && KNOWN_METHODS.has(upper))
        routes.set(`${upper} ${template}`, { route: template, method: upper });
    }
  }
  return [...routes.values()];
}

/** The `http.route` of a request no route answered. */
export const UNMATCHED_ROUTE = 'unmatched';

/** HTTP's methods (RFC 9110, and PATCH); any other is `_OTHER`, so that labels stay few. */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/** `http.request.method`: the method, or `_OTHER` for one HTTP does not define. */
export const requestMethod = (request: IncomingMessage): string => {
  const method = request.method ?? 'GET';
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
};

/** `url.scheme` of the request as Trove received it. */
export const urlScheme = (request: IncomingMessage): string =>
  (request.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
