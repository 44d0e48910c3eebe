import { randomUUID } from 'node:crypto';
import {
  BadGatewayException,
  BadRequestException,
  Injectable,
  Logger,
  UnprocessableEntityException,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { OutboundError, OutboundRequestRefused } from '../../platform/outbound/outbound-errors.js';
import { NotifierDelivery } from './delivery/notifier-delivery.js';
import {
  DeliveryRejected,
  InvalidNotifierUrl,
  UnsupportedNotifierScheme,
} from './delivery/notifier-url.js';
import type { CreateNotifierDto } from './dto/create-notifier.dto.js';
import type { NotifierOutDto } from './dto/notifier-out.dto.js';
import type { UpdateNotifierDto } from './dto/update-notifier.dto.js';
import { NotifierUrlCipher } from './notifier-url-cipher.js';
import { toNotifierOut } from './notifier.mapper.js';
import type { NotifierRecord } from './notifier.record.js';
import { NotifierRepository } from './notifier.repository.js';
import { TestMessageRateLimit } from './test-rate-limit.js';

/** The queue notifier deliveries run on. */
export const DELIVER_JOB = 'notifiers.deliver';

/** What `POST /notifiers/test` sends. */
export const TEST_MESSAGE = { title: 'Trove', body: 'Test message from Trove' };

/** One message to one notifier. */
export interface DeliveryJob {
  notifierId: string;
  title: string;
  body: string;
}

/** A message sent to notifiers. */
export interface NotifierMessage {
  title: string;
  body: string;
}

/**
 * Notifiers: where a group's messages go. Each belongs to one user of one group, who alone sees
 * and changes it; its URL (which embeds secrets) is stored encrypted. Messages to a group are
 * delivered by jobs on the durable queue, retried with backoff; every attempt records its
 * outcome on the notifier.
 */
@Injectable()
export class NotifiersService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Notifiers');
  private readonly testLimit: TestMessageRateLimit;

  constructor(
    private readonly notifiers: NotifierRepository,
    private readonly jobs: JobQueue,
    private readonly cipher: NotifierUrlCipher,
    private readonly delivery: NotifierDelivery,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {
    this.testLimit = new TestMessageRateLimit(this.settings.testRateLimit);
  }

  private get settings(): TroveConfig['notifiers'] {
    return this.config.get('notifiers', { infer: true });
  }

  onModuleInit(): void {
    this.jobs.register<DeliveryJob>({
      name: DELIVER_JOB,
      retryLimit: this.settings.retryLimit,
      retryDelaySeconds: this.settings.retryDelaySeconds,
      concurrency: 2,
      handle: (job, attempt) => this.deliverQueued(job, attempt.retryCount, attempt.retryLimit),
    });
  }

  /** Encrypts URLs an earlier version stored in clear (see the EncryptNotifierUrls migration). */
  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.notifiers.findPlaintext();
    for (const row of rows) {
      await this.notifiers.replacePlaintext(
        row.id,
        await this.cipher.encrypt(row.id, row.urlPlaintext!),
      );
    }
    if (rows.length > 0) this.logger.log(`encrypted the URLs of ${rows.length} notifier(s)`);
  }

  /** The caller's notifiers in the tenant group, by name. */
  async list(user: AuthUser): Promise<NotifierOutDto[]> {
    const records = await this.notifiers.findOwn(user.groupId, user.id);
    return Promise.all(records.map(async (record) => this.toOut(record)));
  }

  /**
   * Any URL of an allowed scheme (the DTO: 422 naming `url` otherwise); 400 when it points where
   * Trove must not send. Its service's form is checked when a message is sent.
   */
  async create(user: AuthUser, dto: CreateNotifierDto): Promise<NotifierOutDto> {
    await this.checkUrl(dto.url);
    const id = randomUUID();
    const record = await this.notifiers.insert({
      id,
      groupId: user.groupId,
      userId: user.id,
      name: dto.name,
      isActive: dto.isActive ?? true,
      urlEncrypted: await this.cipher.encrypt(id, dto.url),
    });
    return toNotifierOut(record, dto.url);
  }

  /** Name and (when given) isActive and URL; null or omitted URL keeps the stored one. */
  @Transactional()
  async update(user: AuthUser, id: string, dto: UpdateNotifierDto): Promise<NotifierOutDto> {
    const record = await this.notifiers.findOwned(user.groupId, id, {
      userId: user.id,
      lock: true,
    });
    if (typeof dto.url === 'string') {
      await this.checkUrl(dto.url);
      record.urlEncrypted = await this.cipher.encrypt(record.id, dto.url);
      record.urlPlaintext = null;
    }
    record.name = dto.name;
    if (dto.isActive !== undefined) record.isActive = dto.isActive;
    return this.toOut(await this.notifiers.save(record));
  }

  /** Deletes the caller's notifier; nothing happens for any other id (still 204, as Homebox). */
  async remove(user: AuthUser, id: string): Promise<void> {
    await this.notifiers.deleteOwn(user.groupId, user.id, id);
  }

  /**
   * Sends the test message to `url` now. 429 past the per-minute limit (per user and per client
   * address), 422 for a URL that cannot be used or a scheme Trove does not deliver to, 400 when
   * it points where Trove must not send, 502 when the service cannot be reached or refuses.
   */
  async test(user: AuthUser, clientAddress: string, url: string): Promise<void> {
    this.testLimit.take([`user:${user.id}`, `address:${clientAddress}`]);
    try {
      await this.delivery.send(url, TEST_MESSAGE);
    } catch (error) {
      throw this.asHttpError(error, 'test message not delivered');
    }
  }

  /**
   * Queues one delivery of `message` to every active notifier of the group (anyone's), in the
   * caller's unit of work (queued iff it commits); the number queued.
   */
  async notifyGroup(groupId: string, message: NotifierMessage): Promise<number> {
    const ids = await this.notifiers.findActiveIds(groupId);
    for (const notifierId of ids) {
      await this.jobs.send<DeliveryJob>(DELIVER_JOB, {
        notifierId,
        title: message.title,
        body: message.body,
      });
    }
    return ids.length;
  }

  /**
   * One attempt of a queued delivery; a deleted or deactivated notifier gets nothing. The
   * outcome is recorded on the notifier. A failure the service may get over (no answer, an
   * error status) throws, so the queue retries; one that will not change (a URL that cannot be
   * used, a scheme not delivered to, an address refused) is recorded and not retried.
   */
  private async deliverQueued(
    job: DeliveryJob,
    retryCount: number,
    retryLimit: number,
  ): Promise<void> {
    const notifier = await this.notifiers.findById(job.notifierId);
    if (!notifier?.isActive) return;
    try {
      const url = await this.urlOf(notifier);
      await this.delivery.send(url, { title: job.title, body: job.body });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.notifiers.recordFailure(notifier.id, new Date(), reason);
      const lasting =
        error instanceof InvalidNotifierUrl ||
        error instanceof UnsupportedNotifierScheme ||
        error instanceof OutboundRequestRefused ||
        !(error instanceof OutboundError || error instanceof DeliveryRejected);
      this.logger.warn(
        `notifier ${notifier.id}: delivery failed (attempt ${retryCount + 1} of ${retryLimit + 1}${lasting ? ', not retried' : ''}): ${reason}`,
      );
      if (!lasting) throw error;
      return;
    }
    await this.notifiers.recordSuccess(notifier.id, new Date());
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await this.delivery.check(url);
    } catch (error) {
      throw this.asHttpError(error, 'notifier not saved');
    }
  }

  private asHttpError(error: unknown, context: string): Error {
    if (error instanceof InvalidNotifierUrl) {
      return ValidationFailedException.forField('url', error.message);
    }
    if (error instanceof UnsupportedNotifierScheme) {
      return new UnprocessableEntityException(error.message);
    }
    if (error instanceof OutboundRequestRefused) {
      return new BadRequestException(`${context}: ${error.message}`);
    }
    if (error instanceof OutboundError || error instanceof DeliveryRejected) {
      return new BadGatewayException(`${context}: ${error.message}`);
    }
    return error as Error;
  }

  /**
   * NotifierOut with the URL in clear; "" when the stored URL cannot be decrypted (the key was
   * changed or lost), so the owner can still see the notifier and give it a new URL.
   */
  private async toOut(record: NotifierRecord): Promise<NotifierOutDto> {
    let url = '';
    try {
      url = await this.urlOf(record);
    } catch (error) {
      this.logger.warn(`notifier ${record.id}: ${(error as Error).message}`);
    }
    return toNotifierOut(record, url);
  }

  private urlOf(record: NotifierRecord): Promise<string> {
    if (record.urlEncrypted === null) return Promise.resolve(record.urlPlaintext ?? '');
    return this.cipher.decrypt(record.id, record.urlEncrypted);
  }

  /** Number of the group's notifiers (a collection restore needs none). */
  countOfGroup(groupId: string): Promise<number> {
    return this.notifiers.countOfGroup(groupId);
  }
}
