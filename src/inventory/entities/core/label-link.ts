const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** What a label's QR code points at in the web UI. */
export type LabelTarget =
  { kind: 'item' | 'location'; id: string } | { kind: 'asset'; assetId: string };

/**
 * The base of the links printed on labels: the configured public hostname (with `https://`
 * when it names no scheme), else the origin the request came to. No trailing slash.
 */
export function publicBaseUrl(configuredHostname: string, requestOrigin: string): string {
  const hostname = configuredHostname.trim();
  const base =
    hostname === '' ? requestOrigin : HAS_SCHEME.test(hostname) ? hostname : `https://${hostname}`;
  return base.replace(/\/+$/, '');
}

/** The text of a label's QR code: `<base>/item/<id>`, `<base>/location/<id>` or `<base>/a/<asset id>`. */
export function labelLink(base: string, target: LabelTarget): string {
  return target.kind === 'asset'
    ? `${base}/a/${encodeURIComponent(target.assetId)}`
    : `${base}/${target.kind}/${target.id}`;
}

/**
 * `GET /qrcode` unescapes `data` once more after the query string was decoded, because
 * Homebox's web UI encodes it twice. Like Go's `url.QueryUnescape`, `+` becomes a space; a
 * value that is not validly escaped is used as it is.
 */
export function unescapeQrData(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
