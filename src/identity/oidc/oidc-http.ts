/** Largest response Trove reads from the provider (discovery, keys, tokens, UserInfo). */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface ProviderResponse {
  status: number;
  contentType: string;
  text: string;
}

/** An HTTP error answer from the provider, shaped as passport-openidconnect expects. */
export class ProviderHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly data: string,
    url: string,
  ) {
    super(`${url} answered ${statusCode}`);
    this.name = 'ProviderHttpError';
  }
}

/**
 * One request to the provider that gives up after `timeoutMs` (and when `signal` aborts, e.g.
 * at shutdown); the whole body is read within the same time.
 */
export async function requestProvider(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProviderResponse> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    ...init,
    signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
  });
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_RESPONSE_BYTES) {
    throw new Error(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
}

/** GETs a JSON object; anything but a 200 with a JSON object is an error. */
export async function getJsonObject(
  url: string,
  timeoutMs: number,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const response = await requestProvider(
    url,
    { headers: { accept: 'application/json', ...headers } },
    timeoutMs,
    signal,
  );
  if (response.status !== 200) throw new ProviderHttpError(response.status, response.text, url);
  return parseJsonObject(response.text, url);
}

export function parseJsonObject(text: string, url: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer with JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${url} did not answer with a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** A textual description of anything thrown, for logs. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
