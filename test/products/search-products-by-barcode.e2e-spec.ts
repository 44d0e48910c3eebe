import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { recordClientRequests } from '../outbound/local-servers.js';
import {
  answerError,
  answerGarbage,
  answerJson,
  delayed,
  BAD_TOKEN,
  expectExactKeys,
  FORGED_TOKEN,
  freshEan13,
  hang,
  NO_PROVIDER,
  NO_TOKEN,
  offProduct,
  search,
  SEARCH,
  StandIns,
  upcItem,
  withCheckDigit,
} from './barcode-stand-ins.js';

describe('GET /api/v1/products/search-from-barcode', () => {
  let standIns: StandIns;
  let trove: TestApp;
  let owner: Session;
  let viewer: Session;

  beforeAll(async () => {
    standIns = await StandIns.start();
    trove = await createTestApp(standIns.env());
    owner = await signUp(trove, { name: 'Ada' });
    viewer = await signUpMember(trove, owner, 'viewer');
  });
  afterAll(async () => {
    await trove.close();
    await standIns.close();
  });

  /** The UPCitemdb stand-in knows the code with a JPEG; Open Food Facts does not. */
  function knownAtUpcitemdb(code: string, images = [standIns.image('photo.jpg')]): void {
    standIns.upc.set(
      code,
      upcItem({
        ean: code,
        title: 'Stabilo BOSS ORIGINAL highlighter, yellow',
        description: 'Highlighter with anti-dry-out technology',
        brand: 'Stabilo',
        model: '70/24',
        images,
      }),
    );
  }

  const upcitemdbHit = (code: string, imageURL: string, imageBase64: string) => ({
    barcode: code,
    imageBase64,
    imageURL,
    manufacturer: 'Stabilo',
    modelNumber: '70/24',
    notes: '',
    search_engine_name: 'upcitemdb.com',
    item: {
      name: 'Stabilo BOSS ORIGINAL highlighter, yellow',
      description: 'Highlighter with anti-dry-out technology',
      quantity: 1,
      parentId: '',
      entityTypeId: '',
      tagIds: [],
    },
  });

  /** The Open Food Facts stand-in knows the code with a PNG. */
  function knownAtOpenFoodFacts(code: string, imageUrl = standIns.image('photo.png')): void {
    standIns.off.set(
      code,
      offProduct(code, {
        product_name: 'Nutella',
        generic_name: 'Hazelnut spread with cocoa',
        brands: 'Ferrero',
        categories: 'Spreads, Sweet spreads',
        quantity: '400 g',
        image_url: imageUrl,
      }),
    );
  }

  const openFoodFactsHit = (code: string, imageURL: string, imageBase64: string) => ({
    barcode: code,
    imageBase64,
    imageURL,
    manufacturer: 'Ferrero',
    modelNumber: '',
    notes: '',
    search_engine_name: 'openfoodfacts.org',
    item: {
      name: 'Nutella',
      description: 'Hazelnut spread with cocoa | Spreads, Sweet spreads | 400 g',
      quantity: 1,
      parentId: '',
      entityTypeId: '',
      tagIds: [],
    },
  });

  const jpegUri = () => `data:image/jpeg;base64,${standIns.jpeg.toString('base64')}`;
  const pngUri = () => `data:image/png;base64,${standIns.png.toString('base64')}`;

  describe('success', () => {
    it('answers a UPCitemdb hit with its JPEG embedded, in the exact result shape', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, standIns.image('photo.jpg'), jpegUri())]);
      expectExactKeys(response.body);
      const [asked] = standIns.upcRequests(code);
      expect(asked.method).toBe('GET');
      expect(asked.headers.accept).toBe('application/json');
      expect(asked.headers).not.toHaveProperty('user_key');
    });

    it('answers an Open Food Facts hit with its PNG embedded, in the exact result shape', async () => {
      const code = freshEan13();
      knownAtOpenFoodFacts(code);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([
        openFoodFactsHit(code, standIns.image('photo.png'), pngUri()),
      ]);
      expectExactKeys(response.body);
      const [asked] = standIns.offRequests(code);
      expect(asked.method).toBe('GET');
      expect(asked.headers['user-agent']).toBe(`Trove/${trove.config.build.version}`);
    });

    it('lists the hits of both providers, UPCitemdb first', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code);
      knownAtOpenFoodFacts(code);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([
        upcitemdbHit(code, standIns.image('photo.jpg'), jpegUri()),
        openFoodFactsHit(code, standIns.image('photo.png'), pngUri()),
      ]);
      expectExactKeys(response.body);
    });

    it('answers 200 [] when no provider knows the code', async () => {
      const code = freshEan13();
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([]);
      expect(standIns.upcRequests(code)).toHaveLength(1);
      expect(standIns.offRequests(code)).toHaveLength(1);
    });

    it('fills the name from brand and model when UPCitemdb has no title, and the OFF name from the generic name', async () => {
      const code = freshEan13();
      standIns.upc.set(
        code,
        upcItem({ ean: code, title: '', brand: 'Acme', model: 'X-1', images: [] }),
      );
      standIns.off.set(
        code,
        offProduct(code, { generic_name: 'Sparkling water', brands: 'Aqua', quantity: '1 l' }),
      );
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([
        {
          barcode: code,
          imageBase64: '',
          imageURL: '',
          manufacturer: 'Acme',
          modelNumber: 'X-1',
          notes: '',
          search_engine_name: 'upcitemdb.com',
          item: {
            name: 'Acme X-1',
            description: '',
            quantity: 1,
            parentId: '',
            entityTypeId: '',
            tagIds: [],
          },
        },
        {
          barcode: code,
          imageBase64: '',
          imageURL: '',
          manufacturer: 'Aqua',
          modelNumber: '',
          notes: '',
          search_engine_name: 'openfoodfacts.org',
          item: {
            name: 'Sparkling water',
            description: 'Sparkling water | 1 l',
            quantity: 1,
            parentId: '',
            entityTypeId: '',
            tagIds: [],
          },
        },
      ]);
    });

    it('gives an item that POST /entities accepts once the empty parentId and entityTypeId are dropped', async () => {
      const code = freshEan13();
      knownAtOpenFoodFacts(code, '');
      const response = await search(trove, owner, { data: code }).expect(200);
      const { item } = response.body[0];
      const { parentId: _parentId, entityTypeId: _entityTypeId, ...body } = item;
      const created = await trove.http
        .post('/api/v1/entities')
        .set('Authorization', owner.authorization)
        .send(body)
        .expect(201);
      expect(created.body).toMatchObject({ name: 'Nutella', quantity: 1 });
    });

    it.each([
      ['a 12-digit UPC-A', '036000291452'],
      ['an 8-digit EAN-8', '96385074'],
      ['a 14-digit GTIN-14', '10012345678902'],
      ['an EAN-13', '4006381333931'],
    ])('searches %s as it is given', async (_kind, code) => {
      knownAtOpenFoodFacts(code, '');
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([openFoodFactsHit(code, '', '')]);
      expect(standIns.upcRequests(code)).toHaveLength(1);
      expect(standIns.offRequests(code)).toHaveLength(1);
    });

    it('accepts productEAN, as Homebox clients send it', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, []);
      const response = await search(trove, owner, { productEAN: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, '', '')]);
    });

    it('searches data when both data and productEAN are given', async () => {
      const data = freshEan13();
      const productEAN = freshEan13();
      knownAtUpcitemdb(data, []);
      const response = await search(trove, owner, { data, productEAN }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(data, '', '')]);
      expect(standIns.upcRequests(productEAN)).toHaveLength(0);
      expect(standIns.offRequests(productEAN)).toHaveLength(0);
    });

    it('lets a viewer search', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, []);
      const response = await search(trove, viewer, { data: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, '', '')]);
    });
  });

  describe('cache', () => {
    it('answers a second search for a code from the cache, without asking the providers', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code);
      knownAtOpenFoodFacts(code);
      const first = await search(trove, owner, { data: code }).expect(200);
      const second = await search(trove, viewer, { productEAN: code }).expect(200);
      expect(second.body).toEqual(first.body);
      expect(second.body).toHaveLength(2);
      expect(standIns.upcRequests(code)).toHaveLength(1);
      expect(standIns.offRequests(code)).toHaveLength(1);
    });

    it('asks the providers once for concurrent searches of one code', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, []);
      standIns.upc.set(code, delayed(300, standIns.upc.get(code)!));
      const [first, second] = await Promise.all([
        search(trove, owner, { data: code }).expect(200),
        search(trove, viewer, { data: code }).expect(200),
      ]);
      expect(first.body).toEqual([upcitemdbHit(code, '', '')]);
      expect(second.body).toEqual(first.body);
      expect(standIns.upcRequests(code)).toHaveLength(1);
      expect(standIns.offRequests(code)).toHaveLength(1);
    });

    it('keeps an empty answer too', async () => {
      const code = freshEan13();
      await search(trove, owner, { data: code }).expect(200, []);
      await search(trove, owner, { data: code }).expect(200, []);
      expect(standIns.upcRequests(code)).toHaveLength(1);
      expect(standIns.offRequests(code)).toHaveLength(1);
    });

    it('does not keep an answer that a provider failed to contribute to', async () => {
      const code = freshEan13();
      standIns.upc.set(code, answerError);
      knownAtOpenFoodFacts(code, '');
      await search(trove, owner, { data: code }).expect(200);
      await search(trove, owner, { data: code }).expect(200);
      expect(standIns.upcRequests(code)).toHaveLength(2);
      expect(standIns.offRequests(code)).toHaveLength(2);
    });
  });

  describe('failing providers', () => {
    it('answers the other provider’s hit when UPCitemdb answers 500', async () => {
      const code = freshEan13();
      standIns.upc.set(code, answerError);
      knownAtOpenFoodFacts(code);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([
        openFoodFactsHit(code, standIns.image('photo.png'), pngUri()),
      ]);
    });

    it('answers the other provider’s hit when UPCitemdb answers something that is not JSON', async () => {
      const code = freshEan13();
      standIns.upc.set(code, answerGarbage);
      knownAtOpenFoodFacts(code, '');
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([openFoodFactsHit(code, '', '')]);
    });

    it('answers the other provider’s hit when Open Food Facts answers JSON of another shape', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, []);
      standIns.off.set(code, answerJson(200, { unexpected: true }));
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, '', '')]);
    });

    it('answers within about the time limit when a provider never answers', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code);
      standIns.off.set(code, hang);
      const started = Date.now();
      const response = await search(trove, owner, { data: code }).expect(200);
      const elapsed = Date.now() - started;
      expect(response.body).toEqual([upcitemdbHit(code, standIns.image('photo.jpg'), jpegUri())]);
      expect(standIns.offRequests(code)).toHaveLength(1);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(10_000);
    });

    it('answers 502 when every provider fails, and asks again next time', async () => {
      const code = freshEan13();
      standIns.upc.set(code, answerError);
      standIns.off.set(code, answerGarbage);
      const response = await search(trove, owner, { data: code }).expect(502);
      expect(response.body).toEqual(NO_PROVIDER);
      await search(trove, owner, { data: code }).expect(502);
      expect(standIns.upcRequests(code)).toHaveLength(2);
      expect(standIns.offRequests(code)).toHaveLength(2);
    });

    it('answers 502 when every provider times out, after about the time limit', async () => {
      const code = freshEan13();
      standIns.upc.set(code, hang);
      standIns.off.set(code, hang);
      const started = Date.now();
      const response = await search(trove, owner, { data: code }).expect(502);
      expect(response.body).toEqual(NO_PROVIDER);
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });

  describe('images', () => {
    it('refuses image URLs at private or metadata addresses without connecting, keeping the hit', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, ['http://169.254.169.254/latest/meta-data/iam/security-credentials/']);
      knownAtOpenFoodFacts(code, 'http://10.0.0.1/images/products/nutella.jpg');
      const recorder = recordClientRequests();
      let response;
      try {
        response = await search(trove, owner, { data: code }).expect(200);
      } finally {
        recorder.stop();
      }
      expect(response.body).toEqual([
        upcitemdbHit(code, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', ''),
        openFoodFactsHit(code, 'http://10.0.0.1/images/products/nutella.jpg', ''),
      ]);
      expect(recorder.hosts).not.toContain('169.254.169.254');
      expect(recorder.hosts).not.toContain('10.0.0.1');
      // The provider requests themselves did go out.
      expect(recorder.hosts.filter((host) => host === '127.0.0.1').length).toBeGreaterThanOrEqual(
        3,
      );
    });

    it.each([
      ['an HTML page served as image/jpeg', 'page.jpg'],
      ['a GIF', 'anim.gif'],
      ['an image larger than 8 MiB', 'huge.jpg'],
      ['a missing image (404)', 'missing.jpg'],
    ])('embeds no image for %s', async (_kind, name) => {
      const code = freshEan13();
      knownAtUpcitemdb(code, [standIns.image(name)]);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, standIns.image(name), '')]);
      expect(
        standIns.imageServer.requests.filter((request) => request.url === `/${name}`).length,
      ).toBeGreaterThan(0);
    });

    it('ignores image URLs that are not http or https', async () => {
      const code = freshEan13();
      knownAtUpcitemdb(code, [
        'javascript:alert(1)',
        'file:///etc/passwd',
        standIns.image('photo.jpg'),
      ]);
      const response = await search(trove, owner, { data: code }).expect(200);
      expect(response.body).toEqual([upcitemdbHit(code, standIns.image('photo.jpg'), jpegUri())]);
    });
  });

  describe('bad input', () => {
    const expect422 = async (query: Record<string, string>, message: string) => {
      const upcBefore = standIns.upcServer.requests.length;
      const offBefore = standIns.offServer.requests.length;
      const response = await search(trove, owner, query).expect(422);
      expect(response.body).toEqual({ error: 'Validation Error', fields: { data: message } });
      expect(standIns.upcServer.requests.length).toBe(upcBefore);
      expect(standIns.offServer.requests.length).toBe(offBefore);
    };
    const FORM = 'the barcode must be 8, 12, 13 or 14 digits (EAN-8, UPC-A, EAN-13 or GTIN-14)';

    it('requires a code', async () => {
      const missing = 'a barcode is required (query parameter data, or productEAN)';
      await expect422({}, missing);
      await expect422({ data: '' }, missing);
      await expect422({ data: '   ', productEAN: '' }, missing);
    });

    it('refuses a wrong check digit, naming the expected one', async () => {
      await expect422(
        { data: '4006381333932' },
        'the barcode has a wrong check digit: 2, where 1 was expected',
      );
      await expect422(
        { data: '036000291453' },
        'the barcode has a wrong check digit: 3, where 2 was expected',
      );
      await expect422(
        { data: '96385075' },
        'the barcode has a wrong check digit: 5, where 4 was expected',
      );
    });

    it('refuses codes of other lengths or with other characters', async () => {
      for (const data of [
        '1234567',
        withCheckDigit('123456789'),
        '123456789012345',
        'abcdefgh',
        '4006381-33931',
      ]) {
        await expect422({ data }, FORM);
      }
    });

    it('checks productEAN the same way, reporting it as data', async () => {
      await expect422(
        { productEAN: '4006381333932' },
        'the barcode has a wrong check digit: 2, where 1 was expected',
      );
    });

    it('checks data, not productEAN, when both are given', async () => {
      await expect422(
        { data: '4006381333932', productEAN: '4006381333931' },
        'the barcode has a wrong check digit: 2, where 1 was expected',
      );
    });
  });

  describe('missing or bad token', () => {
    it('answers 401 without a token or with a bad one, asking no provider', async () => {
      const code = freshEan13();
      const missing = await trove.http.get(SEARCH).query({ data: code }).expect(401);
      expect(missing.body).toEqual(NO_TOKEN);
      for (const authorization of [FORGED_TOKEN, 'Bearer not-a-token']) {
        const response = await trove.http
          .get(SEARCH)
          .query({ data: code })
          .set('Authorization', authorization)
          .expect(401);
        expect(response.body).toEqual(BAD_TOKEN);
      }
      expect(standIns.upcRequests(code)).toHaveLength(0);
      expect(standIns.offRequests(code)).toHaveLength(0);
    });
  });
});
