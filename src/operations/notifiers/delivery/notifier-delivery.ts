import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../../platform/config/configuration.js';
import {
  OutboundConnectionFailed,
  OutboundTimeout,
} from '../../../platform/outbound/outbound-errors.js';
import { OutboundHttpService } from '../../../platform/outbound/outbound-http.service.js';
import {
  DELIVERED_SCHEMES,
  planDelivery,
  type DeliveryMessage,
  type DeliveryPlan,
  type HttpDelivery,
  type SmtpDelivery,
} from './drivers.js';
import { DeliveryRejected, InvalidNotifierUrl, UnsupportedNotifierScheme } from './notifier-url.js';
import { nodemailerModule } from '../../../platform/runtime/on-first-use.js';
import { telemetry } from '../../../platform/telemetry/telemetry.js';

/** The most of a service's answer read (its content only matters for error messages). */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** The most of a service's answer quoted in an error. */
const QUOTED_CHARS = 200;

/** Where an SMTP server lives, for messages: never the user or password. */
const smtpOrigin = (mail: SmtpDelivery): string =>
  `smtp://${mail.host.includes(':') ? `[${mail.host}]` : mail.host}:${mail.port}`;

/**
 * Sends a message to a notifier URL now. Every HTTP request goes through OutboundHttpService
 * (address rules, redirects re-checked, time and size limits); an SMTP server's address is
 * checked under the same rules and connected to exactly. Failures throw: InvalidNotifierUrl,
 * UnsupportedNotifierScheme, an OutboundError, DeliveryRejected (the service said no).
 */
@Injectable()
export class NotifierDelivery {
  constructor(
    private readonly outbound: OutboundHttpService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {
    telemetry().declareCounter(
      'trove.notifier.deliveries',
      DELIVERED_SCHEMES.flatMap((scheme) =>
        ['success', 'failure'].map((outcome) => ({ scheme, outcome })),
      ),
    );
  }

  private get timeoutMs(): number {
    return this.config.get('notifiers', { infer: true }).timeoutMs;
  }

  async send(url: string, message: DeliveryMessage): Promise<void> {
    // The scheme alone names the service: the rest of a notifier URL is its secret.
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? 'unknown';
    try {
      await telemetry().inSpan(
        `notifier delivery ${scheme}`,
        { 'trove.notifier.scheme': scheme },
        () => this.deliver(url, message),
      );
    } catch (error) {
      telemetry().count('trove.notifier.deliveries', { scheme, outcome: 'failure' });
      throw error;
    }
    telemetry().count('trove.notifier.deliveries', { scheme, outcome: 'success' });
  }

  private async deliver(url: string, message: DeliveryMessage): Promise<void> {
    const plan = planDelivery(url, message);
    if (plan.kind === 'smtp') return this.sendMail(plan.mail);
    for (const request of plan.requests) await this.sendRequest(plan.service, request);
  }

  /**
   * Checks a URL before it is saved, as far as Homebox does: every host a URL of complete form
   * sends to must be allowed by the address rules (OutboundRequestRefused). The service's own
   * form (token, webhook id, host, recipients) is not required here: like Homebox, Trove saves
   * any URL of an allowed scheme, and a URL its service cannot use fails when a message is sent
   * (InvalidNotifierUrl: 422 on a test, the notifier's `lastError` on a delivery). A host that
   * does not resolve now passes (it is checked again at each delivery); so do schemes Trove does
   * not deliver to. The plan, when there is one.
   */
  async check(url: string): Promise<DeliveryPlan | undefined> {
    let plan: DeliveryPlan;
    try {
      plan = planDelivery(url, { title: '', body: '' });
    } catch (error) {
      if (error instanceof UnsupportedNotifierScheme || error instanceof InvalidNotifierUrl) {
        return undefined;
      }
      throw error;
    }
    const targets =
      plan.kind === 'smtp'
        ? [{ host: plan.mail.host, origin: smtpOrigin(plan.mail) }]
        : plan.requests.map((request) => {
            const target = new URL(request.url);
            return { host: target.hostname, origin: target.origin };
          });
    for (const { host, origin } of targets) {
      try {
        await this.outbound.resolveAllowed(host, origin, this.timeoutMs);
      } catch (error) {
        if (!(error instanceof OutboundConnectionFailed || error instanceof OutboundTimeout)) {
          throw error;
        }
      }
    }
    return plan;
  }

  private async sendRequest(service: string, request: HttpDelivery): Promise<void> {
    const response = await this.outbound.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    const answer = response.body.toString('utf8');
    if (response.status < 200 || response.status > 299) {
      const quoted = answer.trim().slice(0, QUOTED_CHARS);
      throw new DeliveryRejected(
        `${service} at ${new URL(request.url).origin} answered ${response.status}` +
          (quoted ? `: ${quoted}` : ''),
      );
    }
    const problem = request.check?.(response.status, answer);
    if (problem) throw new DeliveryRejected(problem);
  }

  private async sendMail(mail: SmtpDelivery): Promise<void> {
    const origin = smtpOrigin(mail);
    const timeoutMs = this.timeoutMs;
    const address = await this.outbound.resolveAllowed(mail.host, origin, timeoutMs);
    const nodemailer = await nodemailerModule();
    const transport = nodemailer.createTransport({
      // The checked address, so the connection goes where the check looked.
      host: address.address,
      port: mail.port,
      secure: mail.secure,
      requireTLS: mail.requireTls,
      ignoreTLS: mail.ignoreTls,
      name: mail.clientHost,
      tls: { servername: mail.host },
      auth:
        mail.noAuth || mail.username === ''
          ? undefined
          : { user: mail.username, pass: mail.password },
      authMethod: mail.authMethod,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
    });
    let timer: NodeJS.Timeout | undefined;
    const overall = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new OutboundTimeout(origin, timeoutMs)), timeoutMs);
    });
    try {
      await Promise.race([
        transport.sendMail({
          from: mail.fromName ? { name: mail.fromName, address: mail.from } : mail.from,
          to: mail.to,
          subject: mail.subject,
          ...(mail.html ? { html: mail.text } : { text: mail.text }),
        }),
        overall,
      ]);
    } catch (error) {
      if (error instanceof OutboundTimeout) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new DeliveryRejected(`smtp at ${origin} failed: ${reason}`);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  }
}
