import { describe, expect, it } from 'vitest';
import { backupsToKeep } from './instance-backup-retention.js';

/** One backup a night at 03:30 UTC for `days` days up to `last`, newest first. */
function nightly(last: string, days: number): { createdAt: Date }[] {
  const end = new Date(`${last}T03:30:00Z`).getTime();
  return Array.from({ length: days }, (_, index) => ({
    createdAt: new Date(end - index * 86_400_000),
  }));
}

const dates = (backups: { createdAt: Date }[]): string[] =>
  backups.map((backup) => backup.createdAt.toISOString().slice(0, 10));

describe('backupsToKeep', () => {
  it('keeps 7 daily, 4 weekly and 6 monthly of a year of nightly backups', () => {
    const kept = backupsToKeep(nightly('2026-11-28', 365), { daily: 7, weekly: 4, monthly: 6 });
    expect(dates(kept)).toEqual([
      // The last seven days.
      '2026-11-28',
      '2026-11-27',
      '2026-11-26',
      '2026-11-25',
      '2026-11-24',
      '2026-11-23',
      '2026-11-22',
      // The Sunday that ends each week before (the 22nd, already kept, ends the last of them).
      '2026-11-15',
      '2026-11-08',
      // The last of each of the five months before (the sixth is this month's).
      '2026-10-31',
      '2026-09-30',
      '2026-08-31',
      '2026-07-31',
      '2026-06-30',
    ]);
  });

  it('keeps two backups of one day as one day, the newer of them', () => {
    const morning = { createdAt: new Date('2026-11-28T03:30:00Z') };
    const evening = { createdAt: new Date('2026-11-28T20:00:00Z') };
    const yesterday = { createdAt: new Date('2026-11-27T03:30:00Z') };
    expect(
      backupsToKeep([morning, yesterday, evening], { daily: 2, weekly: 0, monthly: 0 }),
    ).toEqual([evening, yesterday]);
  });

  it('keeps the newest backup even when every count is zero', () => {
    const backups = nightly('2026-11-28', 3);
    expect(backupsToKeep(backups, { daily: 0, weekly: 0, monthly: 0 })).toEqual([backups[0]]);
  });
});
