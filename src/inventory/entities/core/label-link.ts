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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a label's link points at (the reverse of `labelLink`): `…/item/<id>`, `…/location/<id>` or
 * `…/a/<asset id>`, from any host (a label printed before the address changed still works);
 * undefined for any other text.
 */
export function readLabelLink(text: string): LabelTarget | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const [kind, value, ...rest] = url.pathname.split('/').filter(Boolean).slice(-2);
  if (value === undefined || rest.length > 0) return undefined;
  if ((kind === 'item' || kind === 'location') && UUID.test(value)) return { kind, id: value };
  if (kind === 'a') return { kind: 'asset', assetId: unescapeQrData(value) };
  return undefined;
}
