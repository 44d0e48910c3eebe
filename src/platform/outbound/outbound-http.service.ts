import { promises as dns, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OutboundAddressPolicy } from './address-policy.js';
import {
  OutboundConnectionFailed,
  OutboundError,
  OutboundRequestRefused,
  OutboundResponseTooLarge,
  OutboundTimeout,
  OutboundTooManyRedirects,
} from './outbound-errors.js';

export const MAX_REDIRECTS = 3;

export interface OutboundRequest {
  /** GET when omitted. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Limit for the whole exchange: every lookup, hop and the body. */
  timeoutMs: number;
  /** Largest response body accepted; the transfer is aborted beyond it. */
  maxBytes: number;
  /** Value of the Accept header. */
  accept?: string;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

/** Resolves a host name to every address it has (the system resolver by default). */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;

export interface OutboundHttpOptions {
  /** CIDRs that may be reached although private, loopback or link-local. */
  allowNets: readonly string[];
  /** Sent unless the caller sets its own. */
  userAgent: string;
  resolver?: HostResolver;
}

const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Caller headers kept when a redirect leaves the origin; the others may be credentials. */
const CROSS_ORIGIN_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'user-agent',
]);

const lowerCaseKeys = (headers: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** The origin for messages: user-info, path and query may hold secrets. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? `${parsed.protocol}…` : parsed.origin;
  } catch {
    return '(invalid URL)';
  }
}

/** Parses and checks a target URL's form: http or https, a host, no user-info. */
function parseTarget(url: string | URL): URL {
  const text = url.toString();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new OutboundRequestRefused(originOf(text), 'not a valid absolute URL');
  }
  const origin = originOf(text);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new OutboundRequestRefused(origin, `scheme ${parsed.protocol} is not http or https`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new OutboundRequestRefused(origin, 'URLs with user-info are not allowed');
  }
  if (parsed.hostname === '') throw new OutboundRequestRefused(origin, 'the URL has no host');
  return parsed;
}

/** `[::1]` (as URL writes it) is `::1`. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Rejects with `signal`'s reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The one way Trove makes outbound HTTP requests (barcode providers and their images,
 * notifiers). It resolves each host itself, refuses addresses Trove must not reach (see
 * `checkAddress`) before connecting, then connects to exactly the address it checked, so a DNS
 * answer cannot change between the check and the connection. Redirects (at most 3) are checked
 * the same way, hop by hop; the time limit covers the whole exchange and the body size is capped.
 */
export class OutboundHttpService {
  private readonly policy: OutboundAddressPolicy;
  private readonly resolver: HostResolver;

  constructor(private readonly options: OutboundHttpOptions) {
    this.policy = new OutboundAddressPolicy(options.allowNets);
    this.resolver = options.resolver ?? systemResolver;
  }

  async fetch(url: string, request: OutboundRequest): Promise<OutboundResponse> {
    let target = parseTarget(url);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeoutMs);
    try {
      let method = (request.method ?? 'GET').toUpperCase();
      let body = request.body;
      let headers: Record<string, string> = {
        'user-agent': this.options.userAgent,
        ...(request.accept === undefined ? {} : { accept: request.accept }),
        ...lowerCaseKeys(request.headers),
        'accept-encoding': 'identity',
      };
      for (let redirects = 0; ; redirects++) {
        const address = await this.resolveChecked(target, controller.signal);
        const response = await this.send(target, address, method, headers, body, controller.signal);
        const location = response.headers.location;
        if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) {
          return {
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: await this.readBody(response, target, request.maxBytes, controller.signal),
            url: target.toString(),
          };
        }
        response.destroy();
        if (redirects === MAX_REDIRECTS) {
          throw new OutboundTooManyRedirects(target.origin, MAX_REDIRECTS);
        }
        const next = parseTarget(new URL(location, target));
        if (target.protocol === 'https:' && next.protocol === 'http:') {
          throw new OutboundRequestRefused(target.origin, `redirect from https to ${next.origin}`);
        }
        const status = response.statusCode ?? 0;
        if (status === 303 ? method !== 'HEAD' : status <= 302 && method === 'POST') {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        if (next.origin !== target.origin) {
          headers = Object.fromEntries(
            Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name)),
          );
        }
        target = next;
      }
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      if (controller.signal.aborted) throw new OutboundTimeout(target.origin, request.timeoutMs);
      throw new OutboundConnectionFailed(target.origin, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The address to connect to for `host` under the same rules as `fetch`, for protocols other
   * than HTTP (such as SMTP): connect to exactly this address. OutboundRequestRefused when the
   * host or any address it resolves to is not allowed, OutboundConnectionFailed when it does
   * not resolve; `origin` names the target in those errors.
   */
  async resolveAllowed(host: string, origin: string, timeoutMs: number): Promise<LookupAddress> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await this.resolveHost(host.replace(/^\[(.*)\]$/, '$1'), origin, signal);
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      throw new OutboundTimeout(origin, timeoutMs);
    }
  }

  /** The one address to connect to, after every address of the host passed the rules. */
  private resolveChecked(target: URL, signal: AbortSignal): Promise<LookupAddress> {
    return this.resolveHost(bareHost(target), target.origin, signal);
  }

  private async resolveHost(
    host: string,
    origin: string,
    signal: AbortSignal,
  ): Promise<LookupAddress> {
    const named = this.policy.checkHostName(host);
    if (!named.allowed) throw new OutboundRequestRefused(origin, named.reason);
    const family = isIP(host);
    const addresses =
      family !== 0
        ? [{ address: host, family }]
        : await untilAborted(this.resolver(host), signal).catch((error: unknown) => {
            if (signal.aborted) throw error;
            throw new OutboundConnectionFailed(origin, error);
          });
    if (addresses.length === 0) {
      throw new OutboundConnectionFailed(origin, new Error(`${host} has no address`));
    }
    // Every address must pass: a host that also resolves somewhere private is refused outright.
    for (const { address } of addresses) {
      const verdict = this.policy.checkAddress(address);
      if (!verdict.allowed) {
        const via = family !== 0 ? '' : ` (${host} resolves to it)`;
        throw new OutboundRequestRefused(origin, verdict.reason + via);
      }
    }
    return addresses[0];
  }

  private send(
    target: URL,
    checked: LookupAddress,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    // Hands the socket the checked address: Node asks this instead of DNS.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [checked]);
      else callback(null, checked.address, checked.family);
    };
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const outgoing = client.request({
        protocol: target.protocol,
        hostname: bareHost(target),
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method,
        headers:
          body === undefined
            ? headers
            : { ...headers, 'content-length': `${Buffer.byteLength(body)}` },
        lookup,
        // A fresh connection per request: a pooled socket would skip the address check.
        agent: false,
        signal,
      });
      outgoing.once('response', resolve);
      // Also absorbs a late error (an abort while the body is read, handled there).
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  private async readBody(
    response: IncomingMessage,
    target: URL,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Buffer> {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      throw new OutboundResponseTooLarge(target.origin, maxBytes);
    }
    const onAbort = (): void => {
      response.destroy(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > maxBytes) {
          response.destroy();
          throw new OutboundResponseTooLarge(target.origin, maxBytes);
        }
        chunks.push(buffer);
      }
      return Buffer.concat(chunks);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
