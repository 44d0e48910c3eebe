const COLUMNS = `id, group_id AS "groupId", user_id AS "userId", kind, status, progress,
  artifact_key AS "artifactKey", size_bytes::text AS "sizeBytes", error, attempt,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Inserts a pending job: `$1` group, `$2` user, `$3` kind, `$4` artifact key (or null). */
export const INSERT_JOB = `INSERT INTO group_exports (group_id, user_id, kind, artifact_key, size_bytes)
  VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`;

/** Group `$1`'s jobs, newest first. */
export const LIST_JOBS = `SELECT ${COLUMNS} FROM group_exports WHERE group_id = $1
  ORDER BY created_at DESC, id DESC`;

/** Job `$2` of group `$1`. */
export const FIND_JOB = `SELECT ${COLUMNS} FROM group_exports WHERE group_id = $1 AND id = $2`;

/** Job `$1` whatever its group (for the job handler). */
export const FIND_JOB_BY_ID = `SELECT ${COLUMNS} FROM group_exports WHERE id = $1`;

/** Deletes job `$2` of group `$1`, returning it. */
export const DELETE_JOB = `DELETE FROM group_exports WHERE group_id = $1 AND id = $2
  RETURNING ${COLUMNS}`;

/**
 * Attempt `$2` takes job `$1` over: running at 0 %, unless it has finished (or is gone). Returns
 * the job.
 */
export const START_JOB = `UPDATE group_exports
  SET status = 'running', progress = 0, attempt = $2, error = NULL, updated_at = now()
  WHERE id = $1 AND status IN ('pending', 'running') RETURNING ${COLUMNS}`;

/** Progress `$3` of job `$1`, if attempt `$2` still holds it. */
export const SET_PROGRESS = `UPDATE group_exports SET progress = $3, updated_at = now()
  WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING ${COLUMNS}`;

/** Job `$1` completed by attempt `$2`, with artifact `$3` of `$4` bytes. */
export const COMPLETE_JOB = `UPDATE group_exports
  SET status = 'completed', progress = 100, artifact_key = $3, size_bytes = $4, updated_at = now()
  WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING ${COLUMNS}`;

/** Job `$1` failed with `$2`, if attempt `$3` holds it (or none does); returns it. */
export const FAIL_JOB = `UPDATE group_exports
  SET status = 'failed', error = $2, artifact_key = NULL, updated_at = now()
  WHERE id = $1 AND status IN ('pending', 'running') AND (attempt IS NULL OR attempt = $3)
  RETURNING ${COLUMNS}`;

/** Jobs created before `$1`, oldest first, at most `$2`. */
export const STALE_JOBS = `SELECT ${COLUMNS} FROM group_exports WHERE created_at < $1
  ORDER BY created_at, id LIMIT $2`;

/** Deletes the jobs `$1`. */
export const DELETE_JOBS = 'DELETE FROM group_exports WHERE id = ANY($1::uuid[])';

/** The stored zips of group `$1`'s jobs. */
export const ARTIFACTS_OF_GROUP = `SELECT artifact_key AS "artifactKey" FROM group_exports
  WHERE group_id = $1 AND artifact_key IS NOT NULL`;

/** First statement of a unit of work that reads one consistent snapshot. */
export const SNAPSHOT = 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY';
