import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEntity,
  jpeg,
  uploadOk,
  waitForThumbnail,
} from '../attachments/attachment-helpers.js';
import { signUp, type Session } from '../support/factories.js';
import {
  createAppOnExternalServer,
  outageWarnings,
  recoveries,
  LOG_LEVEL,
  type ExternalServerApp,
  type LogLine,
} from '../support/own-server-app.js';
import { waitFor } from './job-helpers.js';

/** The queue's own warnings (errors it could not put down to the outage), and stacks. */
const trouble = (lines: LogLine[]): LogLine[] =>
  lines.filter(
    (line) =>
      line.msg.startsWith('job queue:') ||
      line.msg.startsWith('unhandled error') ||
      line.trace !== undefined ||
      line.level >= LOG_LEVEL.error,
  );

describe('the job queue while PostgreSQL is away', () => {
  let trove: ExternalServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnExternalServer();
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  const photoWithThumbnail = async (name: string) => {
    const entity = await createEntity(trove, owner, name);
    const { attachment } = await uploadOk(trove, owner, entity.id, {
      content: await jpeg(60, 40),
      name: `${name}.jpg`,
    });
    return waitForThumbnail(trove, owner, entity.id, attachment.id);
  };

  it('puts its errors down to the one outage, and its workers resume after', async () => {
    await photoWithThumbnail('before');

    // Judged from the stop on: test files share one module graph per worker, so the app's start
    // may have logged the end of an earlier file's outage.
    const since = trove.logLines.length;
    const logged = () => trove.logLines.slice(since);
    await trove.stopServer();
    // No request is made: the cut connections (the app's pool's and the queue's) report it.
    await waitFor(
      () => Promise.resolve(outageWarnings(logged()).length),
      (count) => count > 0,
      'the outage was reported',
    );
    // A few of the queue's polls (every 2 s by default) fail while the database is away: each
    // error is put down to the outage, none logged on its own.
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    expect(outageWarnings(logged())).toHaveLength(1);
    expect(trouble(trove.logLines)).toEqual([]);

    await trove.startServer();
    await waitFor(
      async () => (await trove.http.get('/api/v1/health/ready')).status,
      (status) => status === 200,
      'ready again',
    );
    const after = await photoWithThumbnail('after');

    expect(after.attachment.thumbnail).toMatchObject({ type: 'thumbnail' });
    expect(outageWarnings(logged())).toHaveLength(1);
    expect(recoveries(logged())).toHaveLength(1);
    expect(trouble(trove.logLines)).toEqual([]);
  }, 60_000);
});
