const COLUMNS = `id, name, trigger, state, started_at AS "startedAt", finished_at AS "finishedAt",
  size_bytes::text AS "sizeBytes", row_count::text AS "rowCount", file_count AS "fileCount",
  tables, encrypted, locations, verified_at AS "verifiedAt", verification, error,
  deleted_at AS "deletedAt"`;

/** A backup begun: `$1` name, `$2` trigger, `$3` start, `$4` encrypted. */
export const INSERT_BACKUP = `INSERT INTO instance_backups (name, trigger, state, started_at, encrypted)
  VALUES ($1, $2, 'running', $3, $4) RETURNING ${COLUMNS}`;

/** Backup `$1` written: `$2` bytes, `$3` rows, `$4` files, `$5` rows per table. */
export const SET_WRITTEN = `UPDATE instance_backups
  SET size_bytes = $2, row_count = $3, file_count = $4, tables = $5 WHERE id = $1`;

/** Backup `$1`'s rehearsed restore at `$2`: `$3` passed or failed. */
export const SET_VERIFIED = `UPDATE instance_backups SET verified_at = $2, verification = $3
  WHERE id = $1`;

/** Backup `$1` stored at `$2` (jsonb array), completed at `$3`. */
export const SET_COMPLETED = `UPDATE instance_backups
  SET state = 'completed', locations = $2, finished_at = $3 WHERE id = $1`;

/** Backup `$1` failed at `$2` with `$3`. */
export const SET_FAILED = `UPDATE instance_backups
  SET state = 'failed', finished_at = $2, error = $3 WHERE id = $1`;

/** Completed backups named in `$1` (text[]), deleted by retention at `$2`. */
export const SET_DELETED = `UPDATE instance_backups SET deleted_at = $2
  WHERE name = ANY($1) AND state = 'completed' AND deleted_at IS NULL`;

/** A page of backups, newest first: `$1` limit, `$2` offset. */
export const LIST_BACKUPS = `SELECT ${COLUMNS} FROM instance_backups
  ORDER BY started_at DESC, id DESC LIMIT $1 OFFSET $2`;

export const COUNT_BACKUPS = `SELECT count(*)::int AS count FROM instance_backups`;

/** Backups running since before `$1`: the process that ran them ended; they failed. */
export const END_INTERRUPTED = `UPDATE instance_backups
  SET state = 'failed', finished_at = now(),
    error = 'interrupted: the process running it ended before it finished'
  WHERE state = 'running' AND started_at < $1`;
