import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  createEntity,
  darkPixelsRightOf,
  expectQrCodeOf,
  locationTypeId,
  pngSize,
  seededLocationId,
  type CreatedEntity,
} from './label-helpers.js';

describe('GET /api/v1/labelmaker/...', () => {
  let owner: Session;
  let viewer: Session;
  let stranger: Session;
  let garage: string;
  let shelf: CreatedEntity;
  let drill: CreatedEntity;
  let theirs: CreatedEntity;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove);
    viewer = await signUpMember(app.trove, owner, 'viewer');
    stranger = await signUp(app.trove);
    garage = await seededLocationId(app.trove, owner, 'Garage');
    shelf = await createEntity(app.trove, owner, {
      name: 'Shelf 2',
      parentId: garage,
      entityTypeId: await locationTypeId(app.trove, owner),
    });
    drill = await createEntity(app.trove, owner, { name: 'Cordless drill', parentId: shelf.id });
    theirs = await createEntity(app.trove, stranger, { name: 'Their drill' });
    // Asset ids are numbered per group; give theirs one that the owner's group does not have.
    await app.trove.query('UPDATE entities SET asset_id = 987654 WHERE id = $1', [theirs.id]);
    theirs = { ...theirs, assetId: '987-654' };
  });

  const label = (path: string, session?: Session) => {
    const request = app.trove.http.get(`/api/v1/labelmaker/${path}`);
    return session ? request.set('Authorization', session.authorization) : request;
  };

  /** Asserts a 526 × 200 PNG label whose QR code encodes `link` and that has text beside it. */
  async function expectLabel(body: unknown, link: string): Promise<void> {
    expect(await pngSize(body)).toEqual({ width: 526, height: 200 });
    const read = await expectQrCodeOf(body as Buffer, link);
    expect(read.left).toBeGreaterThanOrEqual(32);
    const qrRight = read.left + read.rows.length * read.scale;
    expect(await darkPixelsRightOf(body as Buffer, qrRight + 16)).toBeGreaterThan(1000);
  }

  describe('success', () => {
    it('entity, item and location routes draw the same label, linking an item to /item/<id>', async () => {
      const bodies: Buffer[] = [];
      for (const route of ['entity', 'item', 'location']) {
        const response = await label(`${route}/${drill.id}`, owner).expect(200);
        expect(response.headers['content-type']).toBe('image/png');
        expect(response.headers['content-disposition']).toBe('inline; filename="label.png"');
        await expectLabel(response.body, `${app.trove.baseUrl}/item/${drill.id}`);
        bodies.push(response.body as Buffer);
      }
      expect(bodies[1].equals(bodies[0])).toBe(true);
      expect(bodies[2].equals(bodies[0])).toBe(true);
    });

    it('links an entity of a location type to /location/<id>', async () => {
      for (const route of ['entity', 'item', 'location']) {
        const response = await label(`${route}/${shelf.id}`, owner).expect(200);
        await expectLabel(response.body, `${app.trove.baseUrl}/location/${shelf.id}`);
      }
      const seeded = await label(`location/${garage}`, owner).expect(200);
      await expectLabel(seeded.body, `${app.trove.baseUrl}/location/${garage}`);
    });

    it('asset route: the entity with that asset id, linking to /a/<asset id>', async () => {
      expect(drill.assetId).toMatch(/^\d{3}-\d{3,}$/);
      const formatted = await label(`asset/${drill.assetId}`, owner).expect(200);
      expect(formatted.headers['content-type']).toBe('image/png');
      await expectLabel(formatted.body, `${app.trove.baseUrl}/a/${drill.assetId}`);
      const bare = await label(`asset/${Number(drill.assetId.replace('-', ''))}`, owner).expect(
        200,
      );
      expect((bare.body as Buffer).equals(formatted.body as Buffer)).toBe(true);
    });

    it('keeps the configured size when the name is as long as names get', async () => {
      const long = await createEntity(app.trove, owner, {
        name: `${'A very long name '.repeat(14)}end`.slice(0, 255),
        parentId: shelf.id,
      });
      const response = await label(`entity/${long.id}`, owner).expect(200);
      await expectLabel(response.body, `${app.trove.baseUrl}/item/${long.id}`);
    });

    it('lets a viewer render labels', async () => {
      const response = await label(`item/${drill.id}?print=false`, viewer).expect(200);
      await expectLabel(response.body, `${app.trove.baseUrl}/item/${drill.id}`);
      await label(`asset/${drill.assetId}`, viewer).expect(200);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID', async () => {
      for (const route of ['entity', 'item', 'location']) {
        await label(`${route}/not-a-uuid`, owner).expect(400, {
          error: 'invalid route key: id',
        });
      }
    });

    it('answers 400 for an asset id that is not a number', async () => {
      const response = await label('asset/abc', owner).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('abc') });
    });

    it('answers 404 for an unknown entity or asset id', async () => {
      for (const route of ['entity', 'item', 'location']) {
        await label(`${route}/${randomUUID()}`, owner).expect(404);
      }
      await label('asset/999-999', owner).expect(404, { error: 'failed to find asset id' });
    });

    it('refuses to print when no print command is configured (422), and viewers always (403)', async () => {
      await label(`item/${drill.id}?print=true`, owner).expect(422, {
        error: 'label printing is not configured',
      });
      await label(`asset/${drill.assetId}?print=true`, owner).expect(422, {
        error: 'label printing is not configured',
      });
      await label(`item/${drill.id}?print=true`, viewer).expect(403, {
        error: 'viewers of this collection can only read',
      });
      await label(`asset/${drill.assetId}?print=1`, viewer).expect(403, {
        error: 'viewers of this collection can only read',
      });
    });
  });

  describe('tokens', () => {
    it('refuses the attachment token on label routes (403)', async () => {
      for (const path of [
        `entity/${drill.id}`,
        `item/${drill.id}`,
        `location/${shelf.id}`,
        `asset/${drill.assetId}`,
      ]) {
        await label(`${path}?access_token=${encodeURIComponent(owner.attachmentToken)}`).expect(
          403,
          { error: 'Forbidden' },
        );
      }
    });

    it('refuses no token and a bad token with 401', async () => {
      await label(`item/${drill.id}`).expect(401, {
        error: 'authorization header or query is required',
      });
      await app.trove.http
        .get(`/api/v1/labelmaker/asset/${drill.assetId}`)
        .set('Authorization', 'Bearer nonsense')
        .expect(401, { error: 'valid authorization token is required' });
    });
  });

  describe("another group's entities", () => {
    it('are not found, by id or by asset id', async () => {
      for (const route of ['entity', 'item', 'location']) {
        await label(`${route}/${theirs.id}`, owner).expect(404);
      }
      await label(`asset/${theirs.assetId}`, owner).expect(404, {
        error: 'failed to find asset id',
      });
      await label(`asset/${theirs.assetId}`, stranger).expect(200);
      await label(`item/${drill.id}`, stranger).expect(404);
    });
  });
});
