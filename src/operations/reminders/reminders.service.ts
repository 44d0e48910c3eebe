import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import {
  CheckoutsService,
  type OverdueCheckout,
} from '../../inventory/checkouts/checkouts.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import {
  EntitiesService,
  type EndingWarranty,
} from '../../inventory/entities/core/entities.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import {
  MaintenanceService,
  type DueMaintenanceEntry,
} from '../../inventory/maintenance/maintenance.service.js';
import { NotifiersService } from '../notifiers/notifiers.service.js';
import { StockService, type UnannouncedExpiry } from '../../inventory/stock/stock.service.js';
import { addDays, dayIn } from '../../platform/calendar/calendar-day.js';
import { reminderMessage } from './reminder-message.js';
import { RemindersRepository } from './reminders.repository.js';

/** The queue the reminder runs on; its schedule fires each minute of the reminder hour. */
export const REMINDERS_JOB = 'reminders.daily';

/** What a run did. */
export interface ReminderRun {
  day: string;
  /** Groups with something to remind of. */
  groups: number;
  /** Groups reminded by this run. */
  reminded: number;
}

/** What a group's reminder may list. */
interface GroupItems {
  due: DueMaintenanceEntry[];
  warranties: EndingWarranty[];
  overdue: OverdueCheckout[];
  /** Stock expiring or expired whose expiry day has not been announced. */
  expiring: UnannouncedExpiry[];
}

/** Claims and announcements are kept this long, then purged. */
const KEEP_DAYS = 7;

/**
 * The daily reminder each group gets through its active notifiers (anyone's): maintenance
 * entries scheduled today and not completed, and entities whose warranty ends within
 * `TROVE_REMINDERS_WARRANTY_DAYS` (each end day announced once), entities whose stock expires
 * within `TROVE_REMINDERS_EXPIRY_DAYS` or has expired (each expiry day announced once), and
 * check-outs past their due day (every day until they are returned). "Today" and the hour are
 * those of `TROVE_REMINDERS_TIME_ZONE`.
 *
 * The queue's schedule runs the job once a minute across all instances during the reminder
 * hour, so an instance that was down at its start still sends that day's reminders. A group's
 * reminder is sent exactly once a day: it is claimed (a `reminder_runs` row) in the unit of work
 * that queues its deliveries, so two runs never both send it, and a run that fails part-way
 * leaves the groups it did not reach to the next minute's.
 */
@Injectable()
export class RemindersService implements OnModuleInit {
  private readonly logger = new Logger('Reminders');

  constructor(
    private readonly runs: RemindersRepository,
    private readonly maintenance: MaintenanceService,
    private readonly entities: EntitiesService,
    private readonly groups: GroupsService,
    private readonly checkouts: CheckoutsService,
    private readonly notifiers: NotifiersService,
    private readonly stock: StockService,
    private readonly jobs: JobQueue,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  onModuleInit(): void {
    const { hour, timeZone } = this.settings;
    this.jobs.register({
      name: REMINDERS_JOB,
      retryLimit: 2,
      retryDelaySeconds: 20,
      expireInSeconds: 10 * 60,
      schedule: { cron: `* ${hour} * * *`, timeZone, data: {} },
      handle: async () => {
        await this.remind(new Date());
      },
    });
  }

  /** Sends the reminders of the day `now` falls on to the groups not yet reminded that day. */
  async remind(now: Date): Promise<ReminderRun> {
    const { timeZone, warrantyDays, expiryDays } = this.settings;
    const day = dayIn(timeZone, now);
    await this.runs.purgeBefore(addDays(day, -KEEP_DAYS));
    const due = await this.maintenance.dueOn(day);
    const warranties =
      warrantyDays > 0 ? await this.entities.warrantiesEnding(day, addDays(day, warrantyDays)) : [];
    const overdue = await this.checkouts.overdueOn(day);
    const expiring =
      expiryDays > 0 ? await this.stock.unannouncedExpiring(addDays(day, expiryDays)) : [];
    const byGroup = new Map<string, GroupItems>();
    const of = (groupId: string) => {
      let group = byGroup.get(groupId);
      if (!group) {
        byGroup.set(groupId, (group = { due: [], warranties: [], overdue: [], expiring: [] }));
      }
      return group;
    };
    for (const entry of due) of(entry.groupId).due.push(entry);
    for (const item of warranties) of(item.groupId).warranties.push(item);
    for (const checkout of overdue) of(checkout.groupId).overdue.push(checkout);
    for (const item of expiring) of(item.groupId).expiring.push(item);

    let reminded = 0;
    let failed = 0;
    for (const [groupId, items] of byGroup) {
      try {
        if (await this.remindGroup(groupId, day, items)) reminded += 1;
      } catch (error) {
        failed += 1;
        this.logger.warn(
          `could not remind group ${groupId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    if (reminded > 0) this.logger.log(`reminded ${reminded} group(s) for ${day}`);
    if (failed > 0) throw new Error(`${failed} of ${byGroup.size} group(s) could not be reminded`);
    return { day, groups: byGroup.size, reminded };
  }

  /**
   * Claims the group's day and queues its message to each active notifier, in one unit of work;
   * false (and no claim) when it was reminded already, has nothing new, or has no active notifier.
   */
  @Transactional()
  private async remindGroup(
    groupId: string,
    day: string,
    { due, warranties, overdue, expiring }: GroupItems,
  ): Promise<boolean> {
    if (!(await this.runs.claimDay(groupId, day))) return false;
    const fresh = await this.runs.unannounced(warranties);
    if (due.length === 0 && fresh.length === 0 && overdue.length === 0 && expiring.length === 0) {
      await this.runs.releaseDay(groupId, day);
      return false;
    }
    const group = await this.groups.getById(groupId);
    const { warrantyDays, expiryDays } = this.settings;
    const message = reminderMessage(group.name, day, {
      due,
      warranties: fresh,
      warrantyDays,
      expiring,
      expiryDays,
      overdue,
    });
    if ((await this.notifiers.notifyGroup(groupId, message)) === 0) {
      await this.runs.releaseDay(groupId, day);
      return false;
    }
    await this.runs.markAnnounced(fresh);
    await this.stock.markExpiryAnnounced(expiring);
    return true;
  }

  private get settings(): TroveConfig['reminders'] {
    return this.config.get('reminders', { infer: true });
  }
}
