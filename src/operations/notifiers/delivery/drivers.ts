import {
  decoded,
  flag,
  hostWithPort,
  InvalidNotifierUrl,
  optionsOf,
  parseNotifierUrl,
  pathSegments,
  schemeOf,
  UnsupportedNotifierScheme,
} from './notifier-url.js';

/**
 * Each supported Shoutrrr URL turned into what to send: HTTP requests to the service's API, or
 * an e-mail over SMTP. Building is pure (no I/O), so each service's mapping is unit-tested.
 */

/** A message to deliver. */
export interface DeliveryMessage {
  title: string;
  body: string;
}

/** One HTTP request of a delivery; success is a 2xx answer (and `check`, when given). */
export interface HttpDelivery {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** A reason the answer is a failure although 2xx (Slack's API answers errors with 200). */
  check?: (status: number, body: string) => string | undefined;
}

/** An e-mail over SMTP. */
export interface SmtpDelivery {
  host: string;
  port: number;
  username: string;
  password: string;
  /** nodemailer's auth method, when the URL names one. */
  authMethod?: string;
  /** No authentication even with a user name. */
  noAuth: boolean;
  /** TLS from the start (port 465). */
  secure: boolean;
  /** Refuse to go on without STARTTLS. */
  requireTls: boolean;
  /** Never upgrade with STARTTLS. */
  ignoreTls: boolean;
  clientHost: string;
  from: string;
  fromName: string;
  to: string[];
  subject: string;
  text: string;
  html: boolean;
}

export type DeliveryPlan =
  | { kind: 'http'; service: string; requests: HttpDelivery[] }
  | { kind: 'smtp'; service: 'smtp'; mail: SmtpDelivery };

/** Where the services with fixed public hosts live (a seam for tests of the request building). */
export interface ServiceHosts {
  discord: string;
  telegram: string;
  slackWebhooks: string;
  slackApi: string;
  teamsLegacy: string;
}

export const SERVICE_HOSTS: ServiceHosts = {
  discord: 'https://discord.com',
  telegram: 'https://api.telegram.org',
  slackWebhooks: 'https://hooks.slack.com',
  slackApi: 'https://slack.com',
  teamsLegacy: 'outlook.office.com',
};

/** The schemes Trove delivers to. */
export const DELIVERED_SCHEMES: readonly string[] = [
  'generic',
  'generic+http',
  'generic+https',
  'ntfy',
  'gotify',
  'discord',
  'slack',
  'telegram',
  'mattermost',
  'teams',
  'smtp',
];

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON POST of `payload` to `url`, with any further headers. */
const postJson = (
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): HttpDelivery => ({
  url,
  method: 'POST',
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(payload),
});

/** `title` and `body` as one text, for services without a title of their own. */
const joined = (message: DeliveryMessage): string =>
  message.title ? `${message.title}\n\n${message.body}` : message.body;

const truncate = (text: string, max: number): string =>
  [...text].length <= max ? text : `${[...text].slice(0, max - 1).join('')}…`;

/** What to send for `url`; InvalidNotifierUrl or UnsupportedNotifierScheme when it cannot be. */
export function planDelivery(
  url: string,
  message: DeliveryMessage,
  hosts: ServiceHosts = SERVICE_HOSTS,
): DeliveryPlan {
  const scheme = schemeOf(url);
  if (scheme === 'generic+http' || scheme === 'generic+https' || scheme === 'generic') {
    return http('generic', [generic(url, message)]);
  }
  if (scheme.startsWith('generic+')) throw new UnsupportedNotifierScheme(scheme);
  const parsed = parseNotifierUrl(url);
  switch (scheme) {
    case 'ntfy':
      return http(scheme, [ntfy(parsed, message)]);
    case 'gotify':
      return http(scheme, [gotify(parsed, message)]);
    case 'mattermost':
      return http(scheme, [mattermost(parsed, message)]);
    case 'discord':
      return http(scheme, [discord(parsed, message, hosts)]);
    case 'slack':
      return http(scheme, [slack(parsed, message, hosts)]);
    case 'telegram':
      return http(scheme, telegram(parsed, message, hosts));
    case 'teams':
      return http(scheme, [teams(parsed, message, hosts)]);
    case 'smtp':
      return { kind: 'smtp', service: 'smtp', mail: smtp(parsed, message) };
    default:
      throw new UnsupportedNotifierScheme(scheme);
  }
}

const http = (service: string, requests: HttpDelivery[]): DeliveryPlan => ({
  kind: 'http',
  service,
  requests,
});

/** Options of the generic service; every other query parameter goes on to the target. */
const GENERIC_OPTIONS = new Set([
  'template',
  'contenttype',
  'disabletls',
  'method',
  'requestmethod',
  'title',
  'titlekey',
  'messagekey',
]);

/**
 * `generic://host/path` (https unless `disabletls=yes`) and `generic+http(s)://host/path`: the
 * message POSTed as JSON `{"title": …, "message": …}`. Options: `titlekey`, `messagekey`,
 * `method`, `contenttype`, `title` (when the message has none), `@Header=value` (a header),
 * `$key=value` (an extra JSON field), `_name=value` (forwarded as `name`, for a reserved name);
 * any other parameter is forwarded to the target.
 */
function generic(url: string, message: DeliveryMessage): HttpDelivery {
  const wrapped = url.startsWith('generic+');
  const parsed = parseNotifierUrl(wrapped ? url.slice('generic+'.length) : url);
  const options = new Map<string, string>();
  const headers: Record<string, string> = {};
  const extra: Record<string, string> = {};
  const forwarded = new URLSearchParams();
  for (const [key, value] of parsed.searchParams) {
    const lower = key.toLowerCase();
    if (key.startsWith('@') && key.length > 1) headers[headerName(key.slice(1))] = value;
    else if (key.startsWith('$') && key.length > 1) extra[key.slice(1)] = value;
    else if (key.startsWith('_') && key.length > 1) forwarded.append(key.slice(1), value);
    else if (GENERIC_OPTIONS.has(lower)) options.set(lower, value);
    else forwarded.append(key, value);
  }
  const template = options.get('template');
  if (template !== undefined && template !== '' && template.toLowerCase() !== 'json') {
    throw new InvalidNotifierUrl(`generic template "${template}" is not supported (only json)`);
  }
  let target: URL;
  if (wrapped) {
    target = new URL(parsed.toString());
  } else {
    const tls = !flag(options, 'disabletls', false);
    if (parsed.hostname === '') throw new InvalidNotifierUrl('the generic URL has no host');
    target = new URL(`${tls ? 'https' : 'http'}://${hostWithPort(parsed)}${parsed.pathname}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    const credentials = `${decoded(parsed.username)}:${decoded(parsed.password)}`;
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    target.username = '';
    target.password = '';
  }
  target.search = forwarded.toString();
  target.hash = '';
  const payload: Record<string, string> = { ...extra };
  payload[options.get('titlekey') || 'title'] = message.title || (options.get('title') ?? '');
  payload[options.get('messagekey') || 'message'] = message.body;
  return {
    url: target.toString(),
    method: (options.get('method') || options.get('requestmethod') || 'POST').toUpperCase(),
    headers: { 'content-type': options.get('contenttype') || 'application/json', ...headers },
    body: JSON.stringify(payload),
  };
}

/** `acceptLanguage` → `Accept-Language`, as Shoutrrr turns header keys into names. */
const headerName = (key: string): string =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('-');

/** A header value as ntfy reads it: RFC 2047 for text beyond ASCII. */
const headerText = (text: string): string =>
  /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;

/**
 * `ntfy://[user:password@]host[:port]/topic` (or `ntfy://:token@host/topic`): the body POSTed
 * to `<scheme>://host/topic` (`scheme=https` by default), with the title and the options
 * `priority`, `tags`, `delay`, `actions`, `click`, `attach`, `icon`, `filename`, `email`,
 * `cache=no`, `firebase=no` as ntfy's headers.
 */
function ntfy(url: URL, message: DeliveryMessage): HttpDelivery {
  const options = optionsOf(url);
  const [topic, ...rest] = pathSegments(url);
  if (!topic || rest.length > 0) throw new InvalidNotifierUrl('the ntfy URL needs one topic');
  const scheme = options.get('scheme') || 'https';
  if (scheme !== 'http' && scheme !== 'https') {
    throw new InvalidNotifierUrl(`ntfy scheme must be http or https, not "${scheme}"`);
  }
  const host = url.hostname === '' ? 'ntfy.sh' : hostWithPort(url);
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  const title = message.title || options.get('title') || '';
  if (title) headers.title = headerText(title);
  const passthrough: [string, string][] = [
    ['priority', 'priority'],
    ['tags', 'tags'],
    ['delay', 'delay'],
    ['actions', 'actions'],
    ['click', 'click'],
    ['attach', 'attach'],
    ['icon', 'x-icon'],
    ['filename', 'filename'],
    ['email', 'email'],
  ];
  for (const [option, header] of passthrough) {
    const value = options.get(option);
    if (value) headers[header] = headerText(value);
  }
  if (!flag(options, 'cache', true)) headers.cache = 'no';
  if (!flag(options, 'firebase', true)) headers.firebase = 'no';
  const user = decoded(url.username);
  const password = decoded(url.password);
  if (user === '' && password !== '') headers.authorization = `Bearer ${password}`;
  else if (user !== '') {
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return {
    url: `${scheme}://${host}/${encodeURIComponent(topic)}`,
    method: 'POST',
    headers,
    body: message.body,
  };
}

/**
 * `gotify://host[:port][/path]/token` (https unless `disabletls=yes`): JSON `{title, message,
 * priority}` POSTed to `/path/message`, the application token in `X-Gotify-Key`.
 */
function gotify(url: URL, message: DeliveryMessage): HttpDelivery {
  const options = optionsOf(url);
  const segments = pathSegments(url);
  const token = segments.pop();
  if (!token || url.hostname === '') {
    throw new InvalidNotifierUrl('the gotify URL needs a host and an application token');
  }
  const priority = Number(options.get('priority') ?? '0');
  if (!Number.isInteger(priority)) throw new InvalidNotifierUrl('gotify priority must be a number');
  const scheme = flag(options, 'disabletls', false) ? 'http' : 'https';
  const prefix = segments.map(encodeURIComponent).join('/');
  return postJson(
    `${scheme}://${hostWithPort(url)}/${prefix ? `${prefix}/` : ''}message`,
    { title: message.title || options.get('title') || '', message: message.body, priority },
    { 'x-gotify-key': token },
  );
}

/**
 * `mattermost://[username@]host[:port]/token[/channel]` (https unless `disabletls=yes`): JSON
 * `{text, username, channel, icon_url}` POSTed to the incoming webhook `/hooks/token`. Options:
 * `channel`, `icon`.
 */
function mattermost(url: URL, message: DeliveryMessage): HttpDelivery {
  const options = optionsOf(url);
  const [token, pathChannel, ...rest] = pathSegments(url);
  if (!token || url.hostname === '' || rest.length > 0) {
    throw new InvalidNotifierUrl(
      'the mattermost URL must be mattermost://[username@]host[:port]/token[/channel]',
    );
  }
  const scheme = flag(options, 'disabletls', false) ? 'http' : 'https';
  const payload: Record<string, string> = { text: joined(message) };
  const username = decoded(url.username);
  if (username) payload.username = username;
  const channel = options.get('channel') || pathChannel;
  if (channel) payload.channel = channel;
  const icon = options.get('icon');
  if (icon) payload.icon_url = icon;
  return postJson(`${scheme}://${hostWithPort(url)}/hooks/${encodeURIComponent(token)}`, payload);
}

/**
 * `discord://token@webhookid`: an embed (title, description) POSTed to Discord's webhook
 * `/api/webhooks/<id>/<token>`; options `username`, `avatarurl`, `thread_id`, `color`.
 */
function discord(url: URL, message: DeliveryMessage, hosts: ServiceHosts): HttpDelivery {
  const options = optionsOf(url);
  const token = decoded(url.username);
  const webhookId = decoded(url.hostname);
  if (!token || !webhookId) {
    throw new InvalidNotifierUrl('the discord URL must be discord://token@webhookid');
  }
  const embed: Record<string, unknown> = { description: truncate(message.body, 4096) };
  const title = message.title || options.get('title');
  if (title) embed.title = truncate(title, 256);
  const color = Number(options.get('color'));
  if (options.has('color') && Number.isInteger(color)) embed.color = color;
  const payload: Record<string, unknown> = { embeds: [embed] };
  const username = options.get('username');
  if (username) payload.username = username;
  const avatar = options.get('avatarurl') ?? options.get('avatar');
  if (avatar) payload.avatar_url = avatar;
  const thread = options.get('thread_id');
  const query = thread ? `?thread_id=${encodeURIComponent(thread)}` : '';
  return postJson(
    `${hosts.discord}/api/webhooks/${encodeURIComponent(webhookId)}/${encodeURIComponent(token)}${query}`,
    payload,
  );
}

/**
 * `slack://hook:T…-B…-X…@webhook` (or the older `slack://[botname@]T…/B…/X…`): JSON `{text}` to
 * the incoming webhook; `slack://xoxb:token@channel`: `chat.postMessage` with the bot token.
 * Options: `botname`, `icon` (emoji or URL), `thread_ts`, `title`.
 */
function slack(url: URL, message: DeliveryMessage, hosts: ServiceHosts): HttpDelivery {
  const options = optionsOf(url);
  const user = decoded(url.username);
  const password = decoded(url.password);
  const payload: Record<string, string> = { text: joined(message) };
  const botname = options.get('botname') ?? (user && !password ? user : '');
  if (botname) payload.username = botname;
  const icon = options.get('icon');
  if (icon) payload[/^https?:\/\//.test(icon) ? 'icon_url' : 'icon_emoji'] = icon;
  const thread = options.get('thread_ts');
  if (thread) payload.thread_ts = thread;
  if (/^xox[abp]$/.test(user) && password) {
    const channel = decoded(url.hostname);
    if (!channel) throw new InvalidNotifierUrl('the slack URL needs a channel after the token');
    return {
      ...postJson(
        `${hosts.slackApi}/api/chat.postMessage`,
        { ...payload, channel },
        { authorization: `Bearer ${user}-${password}` },
      ),
      check: (_status, body) => {
        try {
          const answer = JSON.parse(body) as { ok?: boolean; error?: string };
          return answer.ok === false ? `slack answered ${answer.error ?? 'an error'}` : undefined;
        } catch {
          return 'slack answered something other than JSON';
        }
      },
    };
  }
  const tokens =
    user === 'hook' && password
      ? password.split(/[-/]/)
      : [url.hostname, ...pathSegments(url)].map(decoded).filter((part) => part !== '');
  if (tokens.length !== 3 || tokens.some((part) => !/^[A-Za-z0-9]+$/.test(part))) {
    throw new InvalidNotifierUrl(
      'the slack URL must be slack://hook:<T…>-<B…>-<token>@webhook or slack://xoxb:<token>@<channel>',
    );
  }
  return postJson(`${hosts.slackWebhooks}/services/${tokens.join('/')}`, payload);
}

/**
 * `telegram://<bot id>:<token>@telegram?chats=<chat>[,<chat>…]`: one `sendMessage` per chat.
 * Options: `notification=no` (silent), `preview=no`, `parsemode` (Markdown, HTML, MarkdownV2).
 */
function telegram(url: URL, message: DeliveryMessage, hosts: ServiceHosts): HttpDelivery[] {
  const options = optionsOf(url);
  const token = `${decoded(url.username)}:${decoded(url.password)}`;
  if (!/^\d+:[A-Za-z0-9_-]+$/.test(token)) {
    throw new InvalidNotifierUrl('the telegram URL must be telegram://<bot id>:<token>@telegram');
  }
  const chats = (options.get('chats') ?? options.get('channels') ?? '')
    .split(',')
    .map((chat) => chat.trim())
    .filter((chat) => chat !== '');
  if (chats.length === 0) throw new InvalidNotifierUrl('the telegram URL needs chats=');
  const parseMode = options.get('parsemode');
  const silent = !flag(options, 'notification', true);
  const noPreview = !flag(options, 'preview', true);
  return chats.map((chat) => {
    const payload: Record<string, unknown> = { chat_id: chat, text: joined(message) };
    if (parseMode && parseMode.toLowerCase() !== 'none') payload.parse_mode = parseMode;
    if (silent) payload.disable_notification = true;
    if (noPreview) payload.disable_web_page_preview = true;
    return postJson(`${hosts.telegram}/bot${token}/sendMessage`, payload);
  });
}

/**
 * `teams://<group>@<tenant>/<altId>/<groupOwner>[/<extraId>]?host=<org>.webhook.office.com`: a
 * MessageCard POSTed to the incoming webhook (host `outlook.office.com` when none is given).
 * Options: `title`, `color`.
 */
function teams(url: URL, message: DeliveryMessage, hosts: ServiceHosts): HttpDelivery {
  const options = optionsOf(url);
  const group = decoded(url.username);
  const tenant = decoded(url.hostname);
  const [altId, groupOwner, extraId, ...rest] = pathSegments(url);
  if (!group || !tenant || !altId || !groupOwner || rest.length > 0) {
    throw new InvalidNotifierUrl(
      'the teams URL must be teams://<group>@<tenant>/<altId>/<groupOwner>[/<extraId>]?host=…',
    );
  }
  const host = options.get('host') || hosts.teamsLegacy;
  if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) throw new InvalidNotifierUrl('teams host is invalid');
  const path = [altId, groupOwner, ...(extraId ? [extraId] : [])].map(encodeURIComponent);
  const title = message.title || options.get('title') || '';
  const card: Record<string, string> = {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: truncate(title || message.body, 200),
    text: message.body,
  };
  if (title) card.title = title;
  const color = options.get('color');
  if (color) card.themeColor = color.replace(/^#/, '');
  return postJson(
    `https://${host}/webhookb2/${encodeURIComponent(group)}@${encodeURIComponent(tenant)}/IncomingWebhook/${path.join('/')}`,
    card,
  );
}

const SMTP_AUTH: Record<string, string | undefined> = {
  unknown: undefined,
  plain: 'PLAIN',
  crammd5: 'CRAM-MD5',
  login: 'LOGIN',
  oauth2: 'XOAUTH2',
};

/**
 * `smtp://[user:password@]host[:port]/?from=<address>&to=<address>[,<address>…]`. Options
 * (Shoutrrr's): `fromaddress`/`from`, `toaddresses`/`to`, `fromname`, `subject`/`title`,
 * `auth` (None, Plain, CRAMMD5, Login, Unknown), `encryption` (Auto, None, ExplicitTLS,
 * ImplicitTLS), `usestarttls`, `clienthost`, `usehtml`. Port 25 by default.
 */
function smtp(url: URL, message: DeliveryMessage): SmtpDelivery {
  const options = optionsOf(url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new InvalidNotifierUrl('the smtp URL has no host');
  const port = url.port ? Number(url.port) : 25;
  const from = options.get('fromaddress') ?? options.get('from') ?? '';
  const to = (options.get('toaddresses') ?? options.get('to') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const address = /^[^\s@<>,]+@[^\s@<>,]+$/;
  if (!address.test(from)) throw new InvalidNotifierUrl('the smtp URL needs from=<address>');
  if (to.length === 0 || !to.every((each) => address.test(each))) {
    throw new InvalidNotifierUrl('the smtp URL needs to=<address>[,<address>…]');
  }
  const auth = (options.get('auth') ?? 'unknown').toLowerCase();
  if (auth !== 'none' && !(auth in SMTP_AUTH)) {
    throw new InvalidNotifierUrl(`smtp auth "${auth}" is not supported`);
  }
  const encryption = (options.get('encryption') ?? 'auto').toLowerCase();
  if (!['auto', 'none', 'explicittls', 'implicittls'].includes(encryption)) {
    throw new InvalidNotifierUrl(`smtp encryption "${encryption}" is not supported`);
  }
  const startTls = flag(options, 'usestarttls', true);
  const secure = encryption === 'implicittls' || (encryption === 'auto' && port === 465);
  return {
    host,
    port,
    username: decoded(url.username),
    password: decoded(url.password),
    authMethod: SMTP_AUTH[auth],
    noAuth: auth === 'none',
    secure,
    requireTls: encryption === 'explicittls',
    ignoreTls: encryption === 'none' || (!secure && !startTls && encryption !== 'explicittls'),
    clientHost: options.get('clienthost') || 'localhost',
    from,
    fromName: options.get('fromname') ?? '',
    to,
    subject: message.title || options.get('subject') || options.get('title') || 'Trove',
    text: message.body,
    html: flag(options, 'usehtml', false),
  };
}
