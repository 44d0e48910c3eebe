/**
 * Why an outbound request did not produce a response. Messages name only the target's origin
 * (scheme, host and port): paths and queries may carry secrets, such as a notifier's token.
 */
export abstract class OutboundError extends Error {
  protected constructor(
    message: string,
    /** The origin of the request that failed. */
    readonly origin: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The URL or an address it resolves to is not one Trove may reach; nothing was sent. */
export class OutboundRequestRefused extends OutboundError {
  constructor(
    origin: string,
    readonly reason: string,
  ) {
    super(`outbound request to ${origin} refused: ${reason}`, origin);
  }
}

/** The request (every hop, and reading the body) took longer than its time limit. */
export class OutboundTimeout extends OutboundError {
  constructor(
    origin: string,
    readonly timeoutMs: number,
  ) {
    super(`outbound request to ${origin} timed out after ${timeoutMs} ms`, origin);
  }
}

/** The response body is larger than the caller's limit; the transfer was aborted. */
export class OutboundResponseTooLarge extends OutboundError {
  constructor(
    origin: string,
    readonly maxBytes: number,
  ) {
    super(`response from ${origin} exceeds the limit of ${maxBytes} bytes`, origin);
  }
}

/** More redirects than allowed. */
export class OutboundTooManyRedirects extends OutboundError {
  constructor(
    origin: string,
    readonly maxRedirects: number,
  ) {
    super(`outbound request to ${origin} redirected more than ${maxRedirects} times`, origin);
  }
}

/** The host name did not resolve, or the connection or TLS handshake failed. */
export class OutboundConnectionFailed extends OutboundError {
  constructor(origin: string, cause: unknown) {
    super(`outbound request to ${origin} failed: ${describeCause(cause)}`, origin, { cause });
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as NodeJS.ErrnoException).code;
  return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
}
