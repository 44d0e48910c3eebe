import { describe, expect, it } from 'vitest';
import { planDelivery, SERVICE_HOSTS, type DeliveryPlan, type HttpDelivery } from './drivers.js';
import {
  InvalidNotifierUrl,
  isAllowedNotifierUrl,
  UnsupportedNotifierScheme,
} from './notifier-url.js';

const MESSAGE = { title: 'Reminder', body: 'Oil change today' };

function requestsOf(plan: DeliveryPlan): HttpDelivery[] {
  if (plan.kind !== 'http') throw new Error('not an HTTP plan');
  return plan.requests;
}
const only = (url: string): HttpDelivery => {
  const requests = requestsOf(planDelivery(url, MESSAGE));
  expect(requests).toHaveLength(1);
  return requests[0];
};
const json = (request: HttpDelivery): unknown => JSON.parse(request.body);

describe('notifier URL allow-list', () => {
  it('accepts the Homebox prefixes and generic+<scheme>, nothing else', () => {
    for (const url of [
      'bark://k@h',
      'discord://t@i',
      'smtp://h',
      'gotify://h/t',
      'googlechat://h',
      'ifttt://k',
      'join://k',
      'mattermost://h/t',
      'matrix://u:p@h',
      'ntfy://h/t',
      'opsgenie://h/k',
      'pushbullet://t',
      'pushover://shoutrrr:t@u',
      'rocketchat://h/t',
      'slack://hook:a-b-c@webhook',
      'teams://g@t/a/o',
      'telegram://1:t@telegram',
      'zulip://b:k@h',
      'generic://h',
      'generic+https://h/p',
    ]) {
      expect(isAllowedNotifierUrl(url), url).toBe(true);
    }
    for (const url of ['https://h', 'Discord://t@i', 'generic+://h', 'mailto:x', ' ntfy://h/t']) {
      expect(isAllowedNotifierUrl(url), url).toBe(false);
    }
  });
});

describe('planDelivery', () => {
  it('posts Discord webhooks to discord.com with an embed', () => {
    const request = only('discord://tok-en@123456?username=Trove&thread_id=77');
    expect(request.url).toBe(`${SERVICE_HOSTS.discord}/api/webhooks/123456/tok-en?thread_id=77`);
    expect(request.url).toBe('https://discord.com/api/webhooks/123456/tok-en?thread_id=77');
    expect(json(request)).toEqual({
      embeds: [{ title: 'Reminder', description: 'Oil change today' }],
      username: 'Trove',
    });
  });

  it('posts Slack webhooks to hooks.slack.com, in the current and the older URL form', () => {
    for (const url of [
      'slack://hook:T0001-B0002-XXXX@webhook?botname=trove&icon=:bell:',
      'slack://T0001/B0002/XXXX?botname=trove&icon=:bell:',
    ]) {
      const request = only(url);
      expect(request.url).toBe('https://hooks.slack.com/services/T0001/B0002/XXXX');
      expect(json(request)).toEqual({
        text: 'Reminder\n\nOil change today',
        username: 'trove',
        icon_emoji: ':bell:',
      });
    }
  });

  it("uses Slack's chat.postMessage with a bot token, and reads its ok:false errors", () => {
    const request = only('slack://xoxb:123-456-abc@C0123');
    expect(request.url).toBe('https://slack.com/api/chat.postMessage');
    expect(request.headers.authorization).toBe('Bearer xoxb-123-456-abc');
    expect(json(request)).toEqual({ text: 'Reminder\n\nOil change today', channel: 'C0123' });
    expect(request.check!(200, '{"ok":false,"error":"channel_not_found"}')).toBe(
      'slack answered channel_not_found',
    );
    expect(request.check!(200, '{"ok":true}')).toBeUndefined();
  });

  it('sends one Telegram sendMessage per chat', () => {
    const requests = requestsOf(
      planDelivery(
        'telegram://110201543:AAHdqTcv@telegram?chats=@channel,-100123&notification=no&parsemode=HTML',
        MESSAGE,
      ),
    );
    expect(requests.map((request) => request.url)).toEqual([
      'https://api.telegram.org/bot110201543:AAHdqTcv/sendMessage',
      'https://api.telegram.org/bot110201543:AAHdqTcv/sendMessage',
    ]);
    expect(requests.map(json)).toEqual([
      {
        chat_id: '@channel',
        text: 'Reminder\n\nOil change today',
        parse_mode: 'HTML',
        disable_notification: true,
      },
      {
        chat_id: '-100123',
        text: 'Reminder\n\nOil change today',
        parse_mode: 'HTML',
        disable_notification: true,
      },
    ]);
  });

  it('posts a MessageCard to the Teams webhook host', () => {
    const request = only(
      'teams://grp@tnt/alt/owner/V2x?host=org.webhook.office.com&color=%23ff0000',
    );
    expect(request.url).toBe(
      'https://org.webhook.office.com/webhookb2/grp@tnt/IncomingWebhook/alt/owner/V2x',
    );
    expect(json(request)).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'Reminder',
      title: 'Reminder',
      text: 'Oil change today',
      themeColor: 'ff0000',
    });
    expect(only('teams://grp@tnt/alt/owner').url).toBe(
      'https://outlook.office.com/webhookb2/grp@tnt/IncomingWebhook/alt/owner',
    );
  });

  it('lets tests point the fixed hosts elsewhere', () => {
    const plan = planDelivery('discord://t@1', MESSAGE, {
      ...SERVICE_HOSTS,
      discord: 'http://127.0.0.1:9',
    });
    expect(requestsOf(plan)[0].url).toBe('http://127.0.0.1:9/api/webhooks/1/t');
  });

  it('builds generic requests: https by default, credentials as Basic auth, header names', () => {
    const request = only('generic://u:p@example.com:8443/in?@acceptLanguage=tlh&foo=bar');
    expect(request.url).toBe('https://example.com:8443/in?foo=bar');
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      'Accept-Language': 'tlh',
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(json(request)).toEqual({ title: 'Reminder', message: 'Oil change today' });
  });

  it('encodes an ntfy title beyond ASCII for its header', () => {
    const request = requestsOf(
      planDelivery('ntfy://ntfy.sh/t', { title: 'Ölwechsel', body: 'heute' }),
    )[0];
    expect(request.url).toBe('https://ntfy.sh/t');
    expect(request.headers.title).toBe(
      `=?UTF-8?B?${Buffer.from('Ölwechsel').toString('base64')}?=`,
    );
  });

  it('reads SMTP options as Shoutrrr names them', () => {
    const plan = planDelivery(
      'smtp://me%40example.com:p%40ss@mail.example.com:465/?FromAddress=me@example.com&ToAddresses=a@example.com,b@example.com&auth=Plain&clienthost=trove.example.com',
      MESSAGE,
    );
    expect(plan).toEqual({
      kind: 'smtp',
      service: 'smtp',
      mail: {
        host: 'mail.example.com',
        port: 465,
        username: 'me@example.com',
        password: 'p@ss',
        authMethod: 'PLAIN',
        noAuth: false,
        secure: true,
        requireTls: false,
        ignoreTls: false,
        clientHost: 'trove.example.com',
        from: 'me@example.com',
        fromName: '',
        to: ['a@example.com', 'b@example.com'],
        subject: 'Reminder',
        text: 'Oil change today',
        html: false,
      },
    });
    const explicit = planDelivery(
      'smtp://mail.example.com:587/?from=a@example.com&to=b@example.com&encryption=ExplicitTLS',
      MESSAGE,
    );
    expect(explicit).toMatchObject({ mail: { secure: false, requireTls: true, port: 587 } });
  });

  it('throws InvalidNotifierUrl for URLs missing what their service needs', () => {
    for (const url of [
      'discord://only-id',
      'slack://hook:too-few@webhook',
      'telegram://1:abc@telegram',
      'teams://grp@tnt/alt',
      'gotify://host',
      'mattermost://host',
      'ntfy://host/a/b',
      'smtp://host/?from=a@example.com',
      'generic://h?template=custom',
      'ntfy://h/t?cache=maybe',
    ]) {
      expect(() => planDelivery(url, MESSAGE), url).toThrow(InvalidNotifierUrl);
    }
  });

  it('throws UnsupportedNotifierScheme for allowed schemes it does not deliver to', () => {
    for (const url of ['bark://k@h', 'matrix://u:p@h', 'generic+ftp://h/x', 'pushover://a:b@c']) {
      expect(() => planDelivery(url, MESSAGE), url).toThrow(UnsupportedNotifierScheme);
    }
    expect(() => planDelivery('bark://k@h', MESSAGE)).toThrow(
      'notifier scheme bark:// is not supported for delivery',
    );
  });
});
