/** A maintenance entry due on the reminder's day. */
export interface DueEntry {
  entityName: string;
  entryName: string;
}

/** An entity whose warranty ends soon. */
export interface EndingWarrantyItem {
  name: string;
  warrantyExpires: string;
}

/** A check-out past its due day with some still out. */
export interface OverdueCheckoutItem {
  entityName: string;
  outstanding: number;
  /** Who has it; null for a member whose account was deleted. */
  who: string | null;
  dueOn: string;
}

/** An entity whose stock expires soon or has expired. */
export interface ExpiringStockItem {
  name: string;
  expiresOn: string;
}

/** What a group's reminder says. */
export interface ReminderMessage {
  title: string;
  body: string;
}

/** What a group's reminder lists; each section only when it has something. */
export interface ReminderParts {
  due: DueEntry[];
  warranties: EndingWarrantyItem[];
  warrantyDays: number;
  expiring?: ExpiringStockItem[];
  expiryDays?: number;
  overdue?: OverdueCheckoutItem[];
}

/**
 * The reminder of a group for `day`: maintenance scheduled that day and not completed, then
 * warranties ending within `warrantyDays`, then stock expiring within `expiryDays` and stock
 * expired (`expirySections`), then check-outs past their due day, each a line.
 */
export function reminderMessage(
  groupName: string,
  day: string,
  parts: ReminderParts,
): ReminderMessage {
  const { due, warranties, warrantyDays, expiring = [], expiryDays = 0, overdue = [] } = parts;
  const sections: string[] = [];
  if (due.length > 0) {
    sections.push(
      [
        'Maintenance scheduled today:',
        ...due.map((entry) => `- ${entry.entityName}: ${entry.entryName}`),
      ].join('\n'),
    );
  }
  if (warranties.length > 0) {
    sections.push(
      [
        `Warranties ending within ${warrantyDays} days:`,
        ...warranties.map((item) =>
          item.warrantyExpires === day
            ? `- ${item.name}: today`
            : `- ${item.name}: ${item.warrantyExpires}`,
        ),
      ].join('\n'),
    );
  }
  sections.push(...expirySections(day, expiring, expiryDays));
  if (overdue.length > 0) {
    sections.push(['Overdue check-outs:', ...overdue.map(overdueLine)].join('\n'));
  }
  return { title: `${groupName}: reminders for ${day}`, body: sections.join('\n\n') };
}

/**
 * The stock expiry sections of a reminder for `day`: what expires from that day to `expiryDays`
 * after it, then what expired before it (each section only when it lists something).
 */
export function expirySections(
  day: string,
  items: ExpiringStockItem[],
  expiryDays: number,
): string[] {
  const sections: string[] = [];
  const upcoming = items.filter((item) => item.expiresOn >= day);
  const expired = items.filter((item) => item.expiresOn < day);
  if (upcoming.length > 0) {
    sections.push(
      [
        `Expiring within ${expiryDays} days:`,
        ...upcoming.map((item) =>
          item.expiresOn === day ? `- ${item.name}: today` : `- ${item.name}: ${item.expiresOn}`,
        ),
      ].join('\n'),
    );
  }
  if (expired.length > 0) {
    sections.push(
      ['Expired:', ...expired.map((item) => `- ${item.name}: ${item.expiresOn}`)].join('\n'),
    );
  }
  return sections;
}

/** `- Drill ×2: Grace, due 2026-11-20`; the count only when more than one is out. */
const overdueLine = (item: OverdueCheckoutItem): string =>
  `- ${item.entityName}${item.outstanding > 1 ? ` ×${item.outstanding}` : ''}: ` +
  `${item.who ?? 'a former member'}, due ${item.dueOn}`;
