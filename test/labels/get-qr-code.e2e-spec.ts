import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember } from '../support/factories.js';
import { expectQrCodeOf, pngSize } from './label-helpers.js';

describe('GET /api/v1/qrcode', () => {
  const t = useSharedApp();

  const qrCode = (query: string, authorization?: string) => {
    const request = t.trove.http.get(`/api/v1/qrcode?${query}`);
    return authorization ? request.set('Authorization', authorization) : request;
  };

  describe('success', () => {
    it('answers a PNG QR code of the text, with a 4-module quiet zone', async () => {
      const response = await qrCode('data=hello%20world', t.owner.authorization).expect(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toBe('inline; filename="qrcode.png"');
      const size = await pngSize(response.body);
      expect(size.width).toBe(size.height);
      expect(size.width).toBeGreaterThanOrEqual(256);
      const read = await expectQrCodeOf(response.body, 'hello world');
      expect(read.left).toBe(4 * read.scale);
      expect(read.top).toBe(4 * read.scale);
      expect(size.width).toBe((read.rows.length + 8) * read.scale);
    });

    it('unescapes the value once more, as the double-encoding web UI needs', async () => {
      const link = 'https://trove.example.com/item/1?a=b&c=d+e';
      const response = await qrCode(
        `data=${encodeURIComponent(encodeURIComponent(link))}`,
        t.owner.authorization,
      ).expect(200);
      await expectQrCodeOf(response.body, link);
    });

    it('turns + into a space like Go’s QueryUnescape, and keeps badly escaped text as it is', async () => {
      const plus = await qrCode('data=a%2Bb', t.owner.authorization).expect(200);
      await expectQrCodeOf(plus.body, 'a b');
      const percent = await qrCode('data=100%25', t.owner.authorization).expect(200);
      await expectQrCodeOf(percent.body, '100%');
      const unicode = await qrCode(
        `data=${encodeURIComponent('Grüße, 東京')}`,
        t.owner.authorization,
      ).expect(200);
      await expectQrCodeOf(unicode.body, 'Grüße, 東京');
    });

    it('takes 4296 characters when they fit (digits)', async () => {
      const digits = '7'.repeat(4296);
      const response = await qrCode(`data=${digits}`, t.owner.authorization).expect(200);
      const size = await pngSize(response.body);
      const read = await expectQrCodeOf(response.body, digits);
      expect(size.width).toBe((read.rows.length + 8) * read.scale);
    });

    it('lets a viewer of the group have one', async () => {
      const viewer = await signUpMember(t.trove, t.owner, 'viewer');
      const response = await qrCode('data=viewer', viewer.authorization).expect(200);
      await expectQrCodeOf(response.body, 'viewer');
    });
  });

  describe('bad input', () => {
    it('refuses a missing or empty data with 422', async () => {
      for (const query of ['', 'data=', 'other=1']) {
        const response = await qrCode(query, t.owner.authorization).expect(422);
        expect(response.body).toEqual({
          error: 'Validation Error',
          fields: { data: expect.stringMatching(/^data /) },
        });
      }
    });

    it('refuses more than 4296 characters with 422', async () => {
      const response = await qrCode(`data=${'7'.repeat(4297)}`, t.owner.authorization).expect(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { data: 'data must be 1 to 4296 characters long' },
      });
    });

    it('refuses text that no QR code can hold at error correction M with 422', async () => {
      const response = await qrCode(`data=${'x'.repeat(4296)}`, t.owner.authorization).expect(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { data: 'data is too long for a QR code' },
      });
    });

    it('refuses a repeated data parameter with 422', async () => {
      const response = await qrCode('data=a&data=b', t.owner.authorization).expect(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { data: expect.any(String) },
      });
    });
  });

  describe('tokens', () => {
    it('accepts the attachment token as ?access_token=', async () => {
      const response = await qrCode(
        `data=image&access_token=${encodeURIComponent(t.owner.attachmentToken)}`,
      ).expect(200);
      expect(response.headers['content-type']).toBe('image/png');
      await expectQrCodeOf(response.body, 'image');
    });

    it('refuses no token and a bad token with 401', async () => {
      await qrCode('data=x').expect(401, { error: 'authorization header or query is required' });
      await qrCode('data=x', 'Bearer nonsense').expect(401, {
        error: 'valid authorization token is required',
      });
      await qrCode('data=x&access_token=nonsense').expect(401, {
        error: 'valid authorization token is required',
      });
    });
  });
});
