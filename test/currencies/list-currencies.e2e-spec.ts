import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';

interface Currency {
  code: string;
  name: string;
  local: string;
  symbol: string;
  decimals: number;
}

describe('GET /api/v1/currencies', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  describe('success', () => {
    it('answers 200 without a token, cacheable for ten minutes', async () => {
      const response = await app.trove.http.get('/api/v1/currencies').expect(200);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('max-age=600');
      expect(Array.isArray(response.body)).toBe(true);
      expect((response.body as Currency[]).length).toBeGreaterThan(100);
    });

    it('lists every currency as exactly code, name, local, symbol and decimals', async () => {
      const response = await app.trove.http.get('/api/v1/currencies').expect(200);

      for (const currency of response.body as Currency[]) {
        expect(Object.keys(currency).sort()).toEqual([
          'code',
          'decimals',
          'local',
          'name',
          'symbol',
        ]);
        expect(currency).toEqual({
          code: expect.stringMatching(/^[A-Z]{3}$/),
          name: expect.any(String),
          local: expect.any(String),
          symbol: expect.any(String),
          decimals: expect.any(Number),
        });
        expect(currency.name.length).toBeGreaterThan(0);
        expect(currency.symbol.length).toBeGreaterThan(0);
        expect(Number.isInteger(currency.decimals)).toBe(true);
        expect(currency.decimals).toBeGreaterThanOrEqual(0);
        expect(currency.decimals).toBeLessThanOrEqual(18);
      }
    });

    it('includes USD and EUR, and JPY without decimals', async () => {
      const response = await app.trove.http.get('/api/v1/currencies').expect(200);
      const byCode = new Map((response.body as Currency[]).map((item) => [item.code, item]));

      expect(byCode.get('USD')).toEqual({
        code: 'USD',
        name: 'US Dollar',
        local: 'United States',
        symbol: '$',
        decimals: 2,
      });
      expect(byCode.get('EUR')).toEqual({
        code: 'EUR',
        name: 'Euro',
        local: 'European Union',
        symbol: '€',
        decimals: 2,
      });
      expect(byCode.get('JPY')).toMatchObject({ code: 'JPY', decimals: 0 });
    });

    it('is sorted by name and has one entry per code', async () => {
      const response = await app.trove.http.get('/api/v1/currencies').expect(200);
      const list = response.body as Currency[];

      const names = list.map((item) => item.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
      const codes = list.map((item) => item.code);
      expect(new Set(codes).size).toBe(codes.length);
    });

    it('answers the same list every time', async () => {
      const first = await app.trove.http.get('/api/v1/currencies').expect(200);
      const second = await app.trove.http.get('/api/v1/currencies').expect(200);
      expect(second.body).toEqual(first.body);
    });

    it('accepts listed codes, sent in lower case, as a group currency', async () => {
      await app.trove.http
        .post('/api/v1/users/register')
        .send({ name: 'Bea', email: 'bea-currency@example.com', password: 'correct horse battery' })
        .expect(204);
      const login = await app.trove.http
        .post('/api/v1/users/login')
        .send({ username: 'bea-currency@example.com', password: 'correct horse battery' })
        .expect(200);
      const authorization = `Bearer ${(login.body as { token: string }).token.replace(/^Bearer /, '')}`;
      const list = (await app.trove.http.get('/api/v1/currencies').expect(200)).body as Currency[];

      const sample = list.filter(
        (item, index) =>
          index % 20 === 0 ||
          index === list.length - 1 ||
          ['CHF', 'GBP', 'JPY'].includes(item.code),
      );
      expect(sample.length).toBeGreaterThan(10);
      for (const { code } of sample) {
        const response = await app.trove.http
          .put('/api/v1/groups')
          .set('Authorization', authorization)
          .send({ currency: code.toLowerCase() });
        expect(response.status).toBe(200);
        expect((response.body as { currency: string }).currency).toBe(code);
      }
    });
  });

  describe('bad input', () => {
    it('ignores query parameters and answers the full list', async () => {
      const plain = await app.trove.http.get('/api/v1/currencies').expect(200);
      const withQuery = await app.trove.http.get('/api/v1/currencies?code=USD&limit=1').expect(200);
      expect(withQuery.body).toEqual(plain.body);
    });

    it('has no write routes', async () => {
      for (const method of ['post', 'put', 'delete'] as const) {
        const response = await app.trove.http[method]('/api/v1/currencies').send({ code: 'XXX' });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: expect.any(String) });
      }
      const list = await app.trove.http.get('/api/v1/currencies').expect(200);
      expect(
        (list.body as Currency[]).some((item) => item.code === 'XXX' && item.name === ''),
      ).toBe(false);
    });
  });

  describe('authentication', () => {
    it('needs no token and ignores a bad one, since the route is public', async () => {
      const plain = await app.trove.http.get('/api/v1/currencies').expect(200);
      const withBadToken = await app.trove.http
        .get('/api/v1/currencies')
        .set('Authorization', 'Bearer not-a-token')
        .expect(200);
      expect(withBadToken.body).toEqual(plain.body);
    });
  });

  describe('another group', () => {
    it('answers a signed-in user the same list as an anonymous caller', async () => {
      await app.trove.http
        .post('/api/v1/users/register')
        .send({ name: 'Ada', email: 'ada-currency@example.com', password: 'correct horse battery' })
        .expect(204);
      const login = await app.trove.http
        .post('/api/v1/users/login')
        .send({ username: 'ada-currency@example.com', password: 'correct horse battery' })
        .expect(200);
      const token = (login.body as { token: string }).token.replace(/^Bearer /, '');

      const anonymous = await app.trove.http.get('/api/v1/currencies').expect(200);
      const signedIn = await app.trove.http
        .get('/api/v1/currencies')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(signedIn.body).toEqual(anonymous.body);
    });
  });
});
