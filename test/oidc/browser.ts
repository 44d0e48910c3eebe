/** One response as the browser saw it; `location` is absolute. */
export interface BrowserResponse {
  url: string;
  status: number;
  location: string | undefined;
  setCookies: string[];
  text: string;
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A minimal browser for the sign-in tests: it keeps cookies per host name (like a browser,
 * regardless of port), honours Path, Expires and Max-Age, sends them back, and never follows
 * redirects by itself, so every hop can be inspected.
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, StoredCookie>>();

  async get(url: string | URL): Promise<BrowserResponse> {
    return this.request('GET', url);
  }

  async post(url: string | URL, form: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.request('POST', url, new URLSearchParams(form).toString());
  }

  /** The cookie header this browser would send to `url`. */
  cookieHeader(url: string | URL): string {
    const target = new URL(url);
    const cookies = this.jar.get(target.hostname) ?? new Map<string, StoredCookie>();
    return [...cookies]
      .filter(([, cookie]) => pathMatches(target.pathname, cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  cookie(url: string | URL, name: string): string | undefined {
    return this.jar.get(new URL(url).hostname)?.get(name)?.value;
  }

  setCookie(url: string | URL, name: string, value: string, path = '/'): void {
    const host = new URL(url).hostname;
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)?.set(name, { value, path });
  }

  deleteCookie(url: string | URL, name: string): void {
    this.jar.get(new URL(url).hostname)?.delete(name);
  }

  private async request(
    method: string,
    url: string | URL,
    body?: string,
  ): Promise<BrowserResponse> {
    const target = new URL(url);
    const headers: Record<string, string> = { accept: 'text/html,application/json' };
    const cookie = this.cookieHeader(target);
    if (cookie !== '') headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(target, { method, headers, body, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.store(target, line);
    const location = response.headers.get('location');
    return {
      url: target.toString(),
      status: response.status,
      location: location === null ? undefined : new URL(location, target).toString(),
      setCookies,
      text: await response.text(),
    };
  }

  private store(from: URL, line: string): void {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    let path = '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key, ...rest] = attribute.split('=');
      const attributeValue = rest.join('=');
      switch (key.toLowerCase()) {
        case 'path':
          path = attributeValue || '/';
          break;
        case 'expires':
          if (Date.parse(attributeValue) <= Date.now()) expired = true;
          break;
        case 'max-age':
          if (Number(attributeValue) <= 0) expired = true;
          break;
      }
    }
    if (expired) this.deleteCookie(from, name);
    else this.setCookie(from, name, value, path);
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/** The attributes of one Set-Cookie line by lower-cased name (flags map to `true`). */
export function parseSetCookie(line: string): {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
} {
  const [pair, ...parts] = line.split(';').map((part) => part.trim());
  const separator = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of parts) {
    const [key, ...rest] = part.split('=');
    attributes[key.toLowerCase()] = rest.length > 0 ? rest.join('=') : true;
  }
  return { name: pair.slice(0, separator), value: pair.slice(separator + 1), attributes };
}

/** The Set-Cookie line for `name` in a response, parsed; undefined when not set. */
export function findSetCookie(
  response: BrowserResponse,
  name: string,
): ReturnType<typeof parseSetCookie> | undefined {
  return response.setCookies.map(parseSetCookie).find((cookie) => cookie.name === name);
}
