import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { openFeed, type Feed } from '../events/feed.js';
import { as, checkOut, createEntity, returnCheckout } from './checkout-helpers.js';

describe('check-outs on the change feed', () => {
  const app = useTestApp();
  let ada: Session;
  let eve: Session;
  let adaFeed: Feed;
  let eveFeed: Feed;

  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
    adaFeed = await openFeed(app.trove.baseUrl, { headers: { Authorization: ada.authorization } });
    eveFeed = await openFeed(app.trove.baseUrl, { headers: { Authorization: eve.authorization } });
  });
  afterAll(async () => {
    await adaFeed?.close();
    await eveFeed?.close();
  });

  /** A tag created in Ada's group: once her socket hears it, everything before it has arrived. */
  const marker = async (): Promise<void> => {
    const before = adaFeed.frames.filter((frame) => frame === 'tag.mutation').length;
    await as(app.trove, ada, 'post', '/api/v1/tags')
      .send({ name: `marker ${before}` })
      .expect(201);
    await adaFeed.waitFor('tag.mutation', before + 1);
  };

  it('announces a check-out and each return to the group as entity.mutation, and nothing refused', async () => {
    const drill = await createEntity(app.trove, ada, { name: 'Drill', quantity: 2 });
    await adaFeed.waitFor('entity.mutation');
    adaFeed.frames.length = 0;

    const checkout = await checkOut(app.trove, ada, drill.id, { quantity: 2, borrower: 'Bob' });
    await adaFeed.waitFor('entity.mutation');
    await returnCheckout(app.trove, ada, checkout, { quantity: 1 });
    await returnCheckout(app.trove, ada, checkout);
    await adaFeed.waitFor('entity.mutation', 3);
    await as(app.trove, ada, 'post', `/api/v1/entities/${drill.id}/checkouts`)
      .send({ quantity: 3, borrower: 'Bob' })
      .expect(422);
    await marker();

    expect(adaFeed.events).toEqual([
      'entity.mutation',
      'entity.mutation',
      'entity.mutation',
      'tag.mutation',
    ]);
    expect(eveFeed.events).toEqual([]);
  });
});
