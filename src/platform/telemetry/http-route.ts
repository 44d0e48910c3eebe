import type { IncomingMessage, ServerResponse } from 'node:http';

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
  const path = `${baseUrl ?? ''}${route.path}`;
  return path.replace(/:(\w+)/g, '{$1}').replace(/\{\*(\w+)\}/g, '{$1}') || '/';
}

/** `2xx`, `4xx`, `5xx`... of an answer. */
export const statusClass = (response: ServerResponse): string =>
  `${Math.floor(response.statusCode / 100)}xx`;
