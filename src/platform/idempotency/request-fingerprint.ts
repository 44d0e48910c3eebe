import { createHash } from 'node:crypto';

/** What identifies a request for its Idempotency-Key. */
export interface FingerprintParts {
  method: string;
  /** Path and query. */
  url: string;
  /** The caller's group for the request, if any. */
  tenant: string | null;
  /** The parsed body (JSON or form); for a multipart upload, its declared length instead. */
  body: unknown;
}

/** JSON with object keys sorted, so that the same body in another key order is the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of method, path, tenant and body. */
export function requestFingerprint(parts: FingerprintParts): string {
  return createHash('sha256')
    .update(
      canonicalJson([parts.method.toUpperCase(), parts.url, parts.tenant, parts.body ?? null]),
    )
    .digest('hex');
}
