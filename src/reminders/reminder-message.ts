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

/** What a group's reminder says. */
export interface ReminderMessage {
  title: string;
  body: string;
}

/** The calendar day (`YYYY-MM-DD`) that `instant` falls on in the IANA time zone `timeZone`. */
export function dayIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The day `days` after `day` (`YYYY-MM-DD`). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The reminder of a group for `day`: maintenance scheduled that day and not completed, then
 * warranties ending within `warrantyDays`, then check-outs past their due day, each a line.
 */
export function reminderMessage(
  groupName: string,
  day: string,
  due: DueEntry[],
  warranties: EndingWarrantyItem[],
  warrantyDays: number,
  overdue: OverdueCheckoutItem[] = [],
): ReminderMessage {
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
  if (overdue.length > 0) {
    sections.push(['Overdue check-outs:', ...overdue.map(overdueLine)].join('\n'));
  }
  return { title: `${groupName}: reminders for ${day}`, body: sections.join('\n\n') };
}

/** `- Drill ×2: Grace, due 2026-11-20`; the count only when more than one is out. */
const overdueLine = (item: OverdueCheckoutItem): string =>
  `- ${item.entityName}${item.outstanding > 1 ? ` ×${item.outstanding}` : ''}: ` +
  `${item.who ?? 'a former member'}, due ${item.dueOn}`;
