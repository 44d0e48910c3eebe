/**
 * Notifier URLs in Shoutrrr's syntax (`<service>://…`), as Homebox accepts them: the allowed
 * schemes, and the errors of a URL that cannot be used.
 */

/** Homebox's allow-list: a URL must start with one of these (or `generic+<scheme>://`). */
export const ALLOWED_PREFIXES: readonly string[] = [
  'bark://',
  'discord://',
  'smtp://',
  'gotify://',
  'googlechat://',
  'ifttt://',
  'join://',
  'mattermost://',
  'matrix://',
  'ntfy://',
  'opsgenie://',
  'pushbullet://',
  'pushover://',
  'rocketchat://',
  'slack://',
  'teams://',
  'telegram://',
  'zulip://',
  'generic://',
];

const GENERIC_WRAPPED = /^generic\+[a-z][a-z0-9+.-]*:\/\//;

export const NOT_ALLOWED_MESSAGE =
  'url must use one of the notifier schemes: ' +
  [...ALLOWED_PREFIXES, 'generic+<scheme>://'].join(', ');

/** Whether the URL starts with an allowed scheme. */
export const isAllowedNotifierUrl = (url: string): boolean =>
  ALLOWED_PREFIXES.some((prefix) => url.startsWith(prefix)) || GENERIC_WRAPPED.test(url);

/** The scheme as written before `://` (`generic+https` included). */
export const schemeOf = (url: string): string => url.slice(0, Math.max(url.indexOf('://'), 0));

/** The URL cannot be used: malformed, or missing what its service needs. */
export class InvalidNotifierUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidNotifierUrl';
  }
}

/** An allowed scheme that Trove does not deliver to. */
export class UnsupportedNotifierScheme extends Error {
  constructor(readonly scheme: string) {
    super(`notifier scheme ${scheme}:// is not supported for delivery`);
    this.name = 'UnsupportedNotifierScheme';
  }
}

/** The service answered, but not with success. */
export class DeliveryRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryRejected';
  }
}

/** Parses a notifier URL (any scheme); an InvalidNotifierUrl when it is not a URL. */
export function parseNotifierUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new InvalidNotifierUrl(`not a valid ${schemeOf(url) || 'notifier'} URL`);
  }
}

/** Query options by lower-cased name (Shoutrrr's keys are case-insensitive); the last wins. */
export function optionsOf(url: URL): Map<string, string> {
  const options = new Map<string, string>();
  for (const [key, value] of url.searchParams) options.set(key.toLowerCase(), value);
  return options;
}

/** Shoutrrr's booleans: yes/true/1/on, no/false/0/off. */
export function flag(options: Map<string, string>, key: string, fallback: boolean): boolean {
  const value = options.get(key)?.toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (['yes', 'true', '1', 'on'].includes(value)) return true;
  if (['no', 'false', '0', 'off'].includes(value)) return false;
  throw new InvalidNotifierUrl(`option ${key} must be yes or no, not "${value}"`);
}

/** A URL part with its percent-escapes decoded. */
export const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new InvalidNotifierUrl('the URL has a malformed percent-escape');
  }
};

/** Non-empty path segments, decoded. */
export const pathSegments = (url: URL): string[] =>
  url.pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decoded);

/** `host[:port]` as written, for building http(s) URLs. */
export const hostWithPort = (url: URL): string =>
  url.port ? `${url.hostname}:${url.port}` : url.hostname;
