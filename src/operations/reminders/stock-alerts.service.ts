import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { DatabaseNotifications } from '../../platform/database/database-notifications.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { NotifiersService } from '../notifiers/notifiers.service.js';
import { reorderOf } from '../../inventory/stock/entity-stock.mapper.js';
import { StockService, type ClaimedAlert } from '../../inventory/stock/stock.service.js';

/** The channel the database announces new low-stock alerts on (`stock-alerts.schema.ts`). */
export const STOCK_ALERTS_CHANNEL = 'trove_stock_alerts';

/** The queue of the periodic sweep that catches alerts no instance heard of. */
export const STOCK_ALERTS_JOB = 'stock.alerts';

/** Alerts claimed by one unit of work. */
const BATCH = 100;

/** What the message says of an alerted entity. */
export function lowStockLine(alert: Omit<ClaimedAlert, 'groupId' | 'id'>): string {
  if (alert.minQuantity === null) return `- ${alert.name}: ${alert.quantity} left`;
  const reorder = reorderOf(alert.quantity, alert.minQuantity, alert.reorderQuantity);
  return `- ${alert.name}: ${alert.quantity} left (minimum ${alert.minQuantity}), reorder ${reorder}`;
}

/**
 * Tells a group's active notifiers when its entities run low. The database decides when
 * (triggers write an outbox row, `stock_alerts`, in the transaction of the change that brought
 * an entity to or below its minimum, once per crossing); this service drains the outbox through
 * the stock module, which owns it, and sends what it claims as the reminders are sent: each
 * batch of alerts is claimed (rows other drains hold are skipped), deleted, and its messages
 * queued (one per group, listing its entities) in one unit of work, so an alert is sent once,
 * or stays for the next drain when queuing fails.
 *
 * Instances that run jobs drain when the database announces new alerts, and a scheduled sweep
 * every five minutes brings any low flag a race left behind up to date and drains what no
 * instance heard of (alerts committed while no listener was connected).
 */
@Injectable()
export class StockAlertsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('StockAlerts');
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly stock: StockService,
    private readonly notifiers: NotifiersService,
    private readonly jobs: JobQueue,
    private readonly notifications: DatabaseNotifications,
  ) {}

  onModuleInit(): void {
    this.jobs.register({
      name: STOCK_ALERTS_JOB,
      retryLimit: 2,
      retryDelaySeconds: 30,
      expireInSeconds: 5 * 60,
      schedule: { cron: '*/5 * * * *', data: {} },
      handle: () => this.sweep(),
    });
    if (!this.jobs.workersEnabled) return;
    this.notifications.listen(
      STOCK_ALERTS_CHANNEL,
      () => this.requestDrain(),
      (subscribed) => {
        if (subscribed) this.requestDrain();
      },
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.draining;
  }

  /** Drains now, or once more after the drain under way, which may have missed the newest. */
  private requestDrain(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drain();
      } while (this.again && !this.stopped);
    })()
      .catch((error: unknown) =>
        this.logger.warn(
          `low-stock alerts not sent yet: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        this.draining = undefined;
      });
  }

  /**
   * The periodic sweep: brings every low flag that disagrees with its entity up to date (a
   * crossing alerts as the triggers would), then sends every waiting alert.
   */
  async sweep(): Promise<void> {
    await this.stock.reconcileLow();
    await this.drain();
  }

  /** Sends every waiting alert, a batch per unit of work. */
  async drain(): Promise<void> {
    while ((await this.drainBatch()) === BATCH && !this.stopped);
  }

  /** Claims a batch of alerts and queues their messages; how many it claimed. */
  @Transactional()
  private async drainBatch(): Promise<number> {
    const alerts = await this.stock.claimAlerts(BATCH);
    const byGroup = new Map<string, ClaimedAlert[]>();
    for (const alert of alerts) {
      const group = byGroup.get(alert.groupId);
      if (group) group.push(alert);
      else byGroup.set(alert.groupId, [alert]);
    }
    for (const [groupId, items] of byGroup) {
      await this.notifiers.notifyGroup(groupId, {
        title: `${items[0].groupName}: low stock`,
        body: ['At or below the minimum:', ...items.map(lowStockLine)].join('\n'),
      });
    }
    return alerts.length;
  }
}
