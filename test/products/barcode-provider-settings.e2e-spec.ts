import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../outbound/local-servers.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  answerError,
  freshEan13,
  NO_PROVIDER,
  offProduct,
  search,
  StandIns,
  upcItem,
} from './barcode-stand-ins.js';

const nutella = (code: string) =>
  offProduct(code, { product_name: 'Nutella', brands: 'Ferrero', quantity: '400 g' });

const nutellaHit = (code: string) => ({
  barcode: code,
  imageBase64: '',
  imageURL: '',
  manufacturer: 'Ferrero',
  modelNumber: '',
  notes: '',
  search_engine_name: 'openfoodfacts.org',
  item: {
    name: 'Nutella',
    description: '400 g',
    quantity: 1,
    parentId: '',
    entityTypeId: '',
    tagIds: [],
  },
});

describe('barcode search with an unreachable UPCitemdb and no cache', () => {
  let standIns: StandIns;
  let trove: TestApp;
  let user: Session;

  beforeAll(async () => {
    standIns = await StandIns.start();
    trove = await createTestApp({
      ...standIns.env(),
      TROVE_BARCODE_UPCITEMDB_URL: `http://127.0.0.1:${await closedPort()}`,
      TROVE_BARCODE_CACHE_TTL: '0',
    });
    user = await signUp(trove);
  });
  afterAll(async () => {
    await trove.close();
    await standIns.close();
  });

  it('answers Open Food Facts’ hit when the connection to UPCitemdb is refused', async () => {
    const code = freshEan13();
    standIns.off.set(code, nutella(code));
    const response = await search(trove, user, { data: code }).expect(200);
    expect(response.body).toEqual([nutellaHit(code)]);
  });

  it('asks the providers on every search when the cache time is 0', async () => {
    const code = freshEan13();
    standIns.off.set(code, nutella(code));
    await search(trove, user, { data: code }).expect(200);
    await search(trove, user, { data: code }).expect(200);
    expect(standIns.offRequests(code)).toHaveLength(2);
  });

  it('answers 502 when the other provider fails too', async () => {
    const code = freshEan13();
    standIns.off.set(code, answerError);
    const response = await search(trove, user, { data: code }).expect(502);
    expect(response.body).toEqual(NO_PROVIDER);
  });
});

describe('barcode search with a UPCitemdb key', () => {
  let standIns: StandIns;
  let trove: TestApp;
  let user: Session;

  beforeAll(async () => {
    standIns = await StandIns.start();
    trove = await createTestApp({
      ...standIns.env(),
      TROVE_BARCODE_UPCITEMDB_KEY: 'key-of-the-test',
    });
    user = await signUp(trove);
  });
  afterAll(async () => {
    await trove.close();
    await standIns.close();
  });

  it('sends the key as the user_key header to UPCitemdb only', async () => {
    const code = freshEan13();
    standIns.upc.set(code, upcItem({ ean: code, title: 'Widget', brand: 'Acme' }));
    const response = await search(trove, user, { data: code }).expect(200);
    expect(response.body).toEqual([
      {
        barcode: code,
        imageBase64: '',
        imageURL: '',
        manufacturer: 'Acme',
        modelNumber: '',
        notes: '',
        search_engine_name: 'upcitemdb.com',
        item: {
          name: 'Widget',
          description: '',
          quantity: 1,
          parentId: '',
          entityTypeId: '',
          tagIds: [],
        },
      },
    ]);
    expect(standIns.upcRequests(code)[0].headers.user_key).toBe('key-of-the-test');
    expect(standIns.offRequests(code)[0].headers).not.toHaveProperty('user_key');
  });
});
