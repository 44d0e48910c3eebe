import type { Request } from 'express';

/**
 * Whether a form post comes from a page of Trove's own address. The session cookie is
 * `SameSite=Lax`, so another site's post carries none; but a sign-in form needs no cookie, and
 * another site could sign a visitor in to an account of its choosing. Browsers send `Origin`
 * with every POST: one that names another host is refused, and so is a post with neither its
 * own `Origin` nor `Sec-Fetch-Site: same-origin`. `publicHost` (from TROVE_OPTIONS_HOSTNAME)
 * is accepted besides the request's own host, for a proxy that rewrites `Host`.
 */
export function isSameOriginPost(request: Request, publicHost: string | undefined): boolean {
  const origin = request.get('origin');
  // A page whose referrer policy is `no-referrer` (Trove's are) posts `Origin: null`; then the
  // browser's own `Sec-Fetch-Site` tells.
  if (origin === undefined || origin === 'null') {
    return request.get('sec-fetch-site') === 'same-origin';
  }
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  const own = [request.get('host'), request.host, publicHost]
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .map((name) => name.toLowerCase());
  return own.includes(host);
}

/** The host of TROVE_OPTIONS_HOSTNAME (a URL or a bare host name), if it is set. */
export function publicHostOf(hostname: string): string | undefined {
  const text = hostname.trim();
  if (text === '') return undefined;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).host;
  } catch {
    return undefined;
  }
}
