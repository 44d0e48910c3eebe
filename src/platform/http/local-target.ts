/** Where Trove sends a browser that has signed in, unless it was going somewhere else. */
export const SIGNED_IN_PAGE = '/home';

/**
 * Where a sign-in may send the browser afterwards: `next` when it is a path of Trove's own address
 * (not another host, not `//host`, no backslash or control character, at most 2000 characters),
 * else `fallback`. So a `next` in a link can never send a browser elsewhere.
 */
export function localTarget(next: unknown, fallback: string = SIGNED_IN_PAGE): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return fallback;
  if (next.includes('\\') || [...next].some((character) => character < ' ')) return fallback;
  return next.length > 2000 ? fallback : next;
}
