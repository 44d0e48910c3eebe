/** Calendar days as `YYYY-MM-DD` strings, the way PostgreSQL's `date` columns reach Trove. */

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
