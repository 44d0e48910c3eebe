/** How many backups to keep per period: the newest of each of the most recent periods. */
export interface BackupRetention {
  daily: number;
  weekly: number;
  monthly: number;
}

const day = (at: Date): string => at.toISOString().slice(0, 10);
const month = (at: Date): string => at.toISOString().slice(0, 7);

/** ISO 8601 week (`2026-W48`) of a UTC time. */
function week(at: Date): string {
  const date = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const number = Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(number).padStart(2, '0')}`;
}

/**
 * The backups to keep, as restic's `forget --keep-daily/--keep-weekly/--keep-monthly` does (in
 * UTC): for each of the `daily` most recent days that have a backup, the newest of that day;
 * likewise for ISO weeks and months. A backup kept by any rule is kept; the newest is always
 * kept. Returns the kept ones, newest first.
 */
export function backupsToKeep<T extends { createdAt: Date }>(
  backups: readonly T[],
  retention: BackupRetention,
): T[] {
  const newestFirst = [...backups].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const kept = new Set<T>(newestFirst.slice(0, 1));
  const rules: [number, (at: Date) => string][] = [
    [retention.daily, day],
    [retention.weekly, week],
    [retention.monthly, month],
  ];
  for (const [count, period] of rules) {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      if (seen.size >= count) break;
      const key = period(backup.createdAt);
      if (seen.has(key)) continue;
      seen.add(key);
      kept.add(backup);
    }
  }
  return newestFirst.filter((backup) => kept.has(backup));
}
