import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeEvents } from '../../src/platform/change-events/change-events.service.js';
import { signUp, type Session } from '../support/factories.js';
import { createAppOnExternalServer, type ExternalServerApp } from '../support/own-server-app.js';
import { openFeed } from './feed.js';

describe('the change feed across a database restart', () => {
  let trove: ExternalServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnExternalServer();
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  it('keeps its sockets and, once it listens again, delivers the changes committed after', async () => {
    const feed = await openFeed(trove.baseUrl, { headers: { Authorization: owner.authorization } });
    await trove.stopServer();
    await trove.startServer();
    await trove.http.get('/api/v1/health/ready').expect(200, { status: 'ok' });
    await trove.app.get(ChangeEvents).listening();

    await trove.http
      .post('/api/v1/tags')
      .set('Authorization', owner.authorization)
      .send({ name: 'After the restart' })
      .expect(201);
    await feed.waitFor('tag.mutation');
    expect(feed.events).toEqual(['tag.mutation']);
    expect(trove.logLines.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^notification connection lost .*; reconnecting$/),
        'listening for notifications again',
      ]),
    );
    await feed.close();
  });
});
