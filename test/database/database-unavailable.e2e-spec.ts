import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import {
  createAppOnExternalServer,
  outageWarnings,
  recoveries,
  type ExternalServerApp,
  type LogLine,
} from '../support/own-server-app.js';

/** Lines of the error filter's 500 path, or any line carrying a stack. */
const stacks = (lines: LogLine[]): LogLine[] =>
  lines.filter((line) => line.msg.startsWith('unhandled error') || line.trace !== undefined);

describe('an external PostgreSQL that goes away and comes back', () => {
  let trove: ExternalServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnExternalServer();
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  const createTag = (name: string) =>
    trove.http.post('/api/v1/tags').set('Authorization', owner.authorization).send({ name });
  const listTags = () => trove.http.get('/api/v1/tags').set('Authorization', owner.authorization);

  it('answers 503 with Retry-After while it is down, logs the outage once, and serves again after', async () => {
    await createTag('Before').expect(201);
    await trove.http.get('/api/v1/health/ready').expect(200, { status: 'ok' });

    // What this test logs from the stop on (lines of the start-up are not its concern).
    const since = trove.logLines.length;
    const logLines = () => trove.logLines.slice(since);
    await trove.stopServer();

    for (let attempt = 0; attempt < 4; attempt++) {
      const write = await createTag(`During ${attempt}`);
      expect(write.status).toBe(503);
      expect(write.headers['retry-after']).toBe('5');
      expect(write.body).toEqual({ error: 'database unavailable' });
      const read = await listTags();
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toBe('5');
      expect(read.body).toEqual({ error: 'database unavailable' });
    }
    await trove.http
      .post('/api/v1/users/login')
      .send({ username: owner.email, password: owner.password })
      .expect(503, { error: 'database unavailable' });
    await trove.http
      .get('/api/v1/health/ready')
      .expect(503, { error: 'database is not reachable' });
    const status = await trove.http.get('/api/v1/status').expect(200);
    expect(status.body.health).toBe(false);
    await trove.http.get('/api/v1/health/live').expect(200, { status: 'ok' });

    const logged = JSON.stringify(logLines());
    expect(outageWarnings(logLines()), logged).toHaveLength(1);
    expect(recoveries(logLines()), logged).toHaveLength(0);
    expect(stacks(trove.logLines)).toEqual([]);

    await trove.startServer();

    await trove.http.get('/api/v1/health/ready').expect(200, { status: 'ok' });
    await createTag('After').expect(201);
    const tags = await listTags().expect(200);
    const names = (tags.body as { name: string }[]).map((tag) => tag.name);
    expect(names).toEqual(expect.arrayContaining(['Before', 'After']));
    expect(names.filter((name) => name.startsWith('During'))).toEqual([]);

    expect(outageWarnings(logLines())).toHaveLength(1);
    expect(recoveries(logLines())).toHaveLength(1);
    expect(stacks(trove.logLines)).toEqual([]);
  });
});
