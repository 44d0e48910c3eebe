import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  attachmentRows,
  attachmentUrl,
  BAD_TOKEN,
  createEntity,
  FORGED_TOKEN,
  getEntity,
  jpeg,
  NO_TOKEN,
  storedKeys,
  UNKNOWN_ID,
  uploadOk,
  validation,
  VIEWER_ONLY_READS,
  type EntityWithAttachments,
} from './attachment-helpers.js';

const primaries = (entity: EntityWithAttachments): Record<string, boolean> =>
  Object.fromEntries(entity.attachments.map((item) => [item.title, item.primary]));

describe('primary photos, PUT and DELETE /api/v1/entities/{id}/attachments/{attachment_id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let photoA: Buffer;
  let photoB: Buffer;

  const app = useTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    photoA = await jpeg(40, 20);
    photoB = await jpeg(20, 40);
  });

  const put = (session: Session, entityId: string, id: string, body: object) =>
    as(app.trove, session, 'put', attachmentUrl(entityId, id)).send(body);
  const remove = (session: Session, entityId: string, id: string) =>
    as(app.trove, session, 'delete', attachmentUrl(entityId, id));

  describe('primary rules on upload', () => {
    it('makes the first photo primary, later ones not, and primary=true the only primary', async () => {
      const entity = await createEntity(app.trove, owner);

      const manual = await uploadOk(app.trove, owner, entity.id, {
        content: Buffer.from('manual'),
        name: 'manual.txt',
        primary: 'true',
      });
      expect(manual.attachment.primary).toBe(false);
      expect(manual.entity.imageId).toBeNull();

      const first = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      expect(first.attachment.primary).toBe(true);
      expect(first.entity.imageId).toBe(first.attachment.id);

      const second = await uploadOk(app.trove, owner, entity.id, {
        content: photoB,
        name: 'b.jpg',
      });
      expect(primaries(second.entity)).toEqual({
        'manual.txt': false,
        'a.jpg': true,
        'b.jpg': false,
      });
      expect(second.entity.imageId).toBe(first.attachment.id);

      const third = await uploadOk(app.trove, owner, entity.id, {
        content: photoB,
        name: 'c.jpg',
        primary: 'true',
      });
      expect(primaries(third.entity)).toEqual({
        'manual.txt': false,
        'a.jpg': false,
        'b.jpg': false,
        'c.jpg': true,
      });
      expect(third.entity.imageId).toBe(third.attachment.id);
    });

    it('set-primary-photos gives each entity with photos but no primary its oldest photo', async () => {
      const withPrimary = await createEntity(app.trove, owner, 'Has one');
      const without = await createEntity(app.trove, owner, 'Lost it');
      const theirs = await createEntity(app.trove, outsider, 'Theirs');
      const kept = await uploadOk(app.trove, owner, withPrimary.id, {
        content: photoA,
        name: 'a.jpg',
      });
      const oldest = await uploadOk(app.trove, owner, without.id, {
        content: photoA,
        name: 'old.jpg',
      });
      await uploadOk(app.trove, owner, without.id, { content: photoB, name: 'new.jpg' });
      await put(owner, without.id, oldest.attachment.id, {
        type: 'photo',
        title: 'old.jpg',
      }).expect(200);
      const foreign = await uploadOk(app.trove, outsider, theirs.id, {
        content: photoA,
        name: 'x.jpg',
      });
      await put(outsider, theirs.id, foreign.attachment.id, {
        type: 'photo',
        title: 'x.jpg',
      }).expect(200);
      expect((await getEntity(app.trove, owner, without.id)).imageId).toBeNull();

      const response = await as(app.trove, member, 'post', '/api/v1/actions/set-primary-photos');

      expect([response.status, response.body]).toEqual([200, { completed: 1 }]);
      expect((await getEntity(app.trove, owner, without.id)).imageId).toBe(oldest.attachment.id);
      expect((await getEntity(app.trove, owner, withPrimary.id)).imageId).toBe(kept.attachment.id);
      expect((await getEntity(app.trove, outsider, theirs.id)).imageId).toBeNull();
      const again = await as(app.trove, owner, 'post', '/api/v1/actions/set-primary-photos');
      expect(again.body).toEqual({ completed: 0 });
    });
  });

  describe('PUT', () => {
    it('replaces type, title and primary, and making a photo primary clears the others', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      const b = await uploadOk(app.trove, owner, entity.id, { content: photoB, name: 'b.jpg' });

      const response = await put(member, entity.id, b.attachment.id, {
        type: 'photo',
        title: 'Back view',
        primary: true,
      });

      expect(response.status).toBe(200);
      expect(response.body.id).toBe(entity.id);
      expect(response.body.imageId).toBe(b.attachment.id);
      expect(response.body.attachments).toEqual([
        { ...a.attachment, primary: false, updatedAt: expect.any(String) },
        {
          ...b.attachment,
          title: 'Back view',
          primary: true,
          updatedAt: expect.any(String),
        },
      ]);
    });

    it('is a full replacement: omitted primary is false, and only photos can be primary', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });

      const asReceipt = await put(owner, entity.id, a.attachment.id, {
        type: 'receipt',
        title: 'Till receipt',
        primary: true,
      });
      expect(asReceipt.status).toBe(200);
      expect(asReceipt.body.attachments[0]).toMatchObject({
        type: 'receipt',
        title: 'Till receipt',
        primary: false,
      });
      expect(asReceipt.body.imageId).toBeNull();

      const backToPhoto = await put(owner, entity.id, a.attachment.id, {
        type: 'photo',
        title: 'a',
      });
      expect(backToPhoto.body.attachments[0]).toMatchObject({ type: 'photo', primary: false });
      const primaryAgain = await put(owner, entity.id, a.attachment.id, {
        type: 'photo',
        title: 'a',
        primary: true,
      });
      expect(primaryAgain.body.imageId).toBe(a.attachment.id);
    });

    it('422 for a missing or bad type, title or primary, and nothing changes', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      const before = await getEntity(app.trove, owner, entity.id);

      const missing = await put(owner, entity.id, a.attachment.id, {});
      const bad = await put(owner, entity.id, a.attachment.id, {
        type: 'thumbnail',
        title: 'x'.repeat(256),
        primary: 'yes',
      });
      const control = await put(owner, entity.id, a.attachment.id, {
        type: 'photo',
        title: 'a\nb',
      });

      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.fields as object).sort()).toEqual(['title', 'type']);
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['primary', 'title', 'type']);
      expect(bad.body.fields.type).toBe(
        'type must be one of the following values: attachment, photo, manual, warranty, receipt',
      );
      expect([control.status, control.body]).toEqual([
        422,
        validation({ title: 'title must not contain control characters' }),
      ]);
      expect(await getEntity(app.trove, owner, entity.id)).toEqual(before);
    });
  });

  describe('DELETE', () => {
    it('204, and the stored file stays until the last attachment using it goes', async () => {
      const first = await createEntity(app.trove, owner, 'First');
      const second = await createEntity(app.trove, owner, 'Second');
      const content = Buffer.from('shared between three attachments');
      const one = await uploadOk(app.trove, owner, first.id, { content, name: 'one.txt' });
      const two = await uploadOk(app.trove, owner, first.id, { content, name: 'two.txt' });
      const three = await uploadOk(app.trove, owner, second.id, { content, name: 'three.txt' });
      const key = one.attachment.path;
      expect([two.attachment.path, three.attachment.path]).toEqual([key, key]);

      const response = await remove(member, first.id, one.attachment.id);
      expect([response.status, response.text]).toEqual([204, '']);
      expect(await storedKeys(app.trove)).toContain(key);
      expect((await getEntity(app.trove, owner, first.id)).attachments.map((a) => a.title)).toEqual(
        ['two.txt'],
      );

      await remove(owner, first.id, two.attachment.id).expect(204);
      expect(await storedKeys(app.trove)).toContain(key);

      await remove(owner, second.id, three.attachment.id).expect(204);
      expect(await storedKeys(app.trove)).not.toContain(key);
      const again = await remove(owner, second.id, three.attachment.id);
      expect([again.status, again.body]).toEqual([
        404,
        { error: `attachment ${three.attachment.id} not found` },
      ]);
    });

    it('deleting the primary photo leaves the entity without an image', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      await uploadOk(app.trove, owner, entity.id, { content: photoB, name: 'b.jpg' });

      await remove(owner, entity.id, a.attachment.id).expect(204);

      const after = await getEntity(app.trove, owner, entity.id);
      expect(after.imageId).toBeNull();
      expect(after.attachments.map((item) => [item.title, item.primary])).toEqual([
        ['b.jpg', false],
      ]);
    });

    it('deleting an entity deletes the files no other attachment uses', async () => {
      const doomed = await createEntity(app.trove, owner, 'Doomed');
      const survivor = await createEntity(app.trove, owner, 'Survivor');
      const own = Buffer.from('only on the doomed entity');
      const shared = Buffer.from('also on the survivor');
      const ownKey = (
        await uploadOk(app.trove, owner, doomed.id, { content: own, name: 'own.txt' })
      ).attachment.path;
      const sharedKey = (
        await uploadOk(app.trove, owner, doomed.id, { content: shared, name: 's.txt' })
      ).attachment.path;
      await uploadOk(app.trove, owner, survivor.id, { content: shared, name: 's.txt' });
      await as(app.trove, owner, 'post', `/api/v1/entities/${doomed.id}/attachments/external`)
        .send({ source_type: 'link', external_id: 'https://example.com/x' })
        .expect(201);

      await as(app.trove, owner, 'delete', `/api/v1/entities/${doomed.id}`).expect(204);

      const keys = await storedKeys(app.trove);
      expect(keys).not.toContain(ownKey);
      expect(keys).toContain(sharedKey);
      expect(await attachmentRows(app.trove, doomed.id)).toEqual([]);
    });

    it('deleting a group deletes its files', async () => {
      const leaving = await signUp(app.trove, { name: 'Leaving' });
      const other = await as(app.trove, leaving, 'post', '/api/v1/groups').send({ name: 'Other' });
      expect(other.status).toBe(201);
      const entity = await createEntity(app.trove, leaving, 'Box');
      const keys = [
        (await uploadOk(app.trove, leaving, entity.id, { content: photoA, name: 'a.jpg' }))
          .attachment.path,
        (
          await uploadOk(app.trove, leaving, entity.id, {
            content: Buffer.from('t'),
            name: 't.txt',
          })
        ).attachment.path,
      ];
      const unrelated = await storedKeys(app.trove);

      await as(app.trove, leaving, 'delete', '/api/v1/groups').expect(204);

      const after = await storedKeys(app.trove);
      for (const key of keys) expect(after).not.toContain(key);
      expect(after).toEqual(unrelated.filter((key) => !keys.includes(key)));
    });
  });

  describe('missing or bad token', () => {
    it('401 on PUT and DELETE', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      const url = attachmentUrl(entity.id, a.attachment.id);

      for (const method of ['put', 'delete'] as const) {
        const none = await app.trove.http[method](url).send({ type: 'photo', title: 'x' });
        const forged = await app.trove.http[method](url)
          .set('Authorization', FORGED_TOKEN)
          .send({ type: 'photo', title: 'x' });
        expect([method, none.status, none.body]).toEqual([method, 401, NO_TOKEN]);
        expect([method, forged.status, forged.body]).toEqual([method, 401, BAD_TOKEN]);
      }
      expect((await getEntity(app.trove, owner, entity.id)).attachments).toHaveLength(1);
    });

    it('403 for a viewer and for the attachment token', async () => {
      const entity = await createEntity(app.trove, owner);
      const a = await uploadOk(app.trove, owner, entity.id, { content: photoA, name: 'a.jpg' });
      const url = attachmentUrl(entity.id, a.attachment.id);

      const viewerPut = await put(viewer, entity.id, a.attachment.id, {
        type: 'photo',
        title: 'x',
      });
      const viewerDelete = await remove(viewer, entity.id, a.attachment.id);
      const tokenDelete = await app.trove.http.delete(
        `${url}?access_token=${owner.attachmentToken}`,
      );

      expect([viewerPut.status, viewerPut.body]).toEqual([403, VIEWER_ONLY_READS]);
      expect([viewerDelete.status, viewerDelete.body]).toEqual([403, VIEWER_ONLY_READS]);
      expect(tokenDelete.status).toBe(403);
      expect((await getEntity(app.trove, owner, entity.id)).attachments).toEqual([a.attachment]);
    });
  });

  describe("another entity's or group's attachment", () => {
    it('404 on PUT and DELETE, and nothing changes', async () => {
      const mine = await createEntity(app.trove, owner, 'Mine');
      const sibling = await createEntity(app.trove, owner, 'Sibling');
      const theirs = await createEntity(app.trove, outsider, 'Theirs');
      const my = await uploadOk(app.trove, owner, mine.id, { content: photoA, name: 'a.jpg' });
      const their = await uploadOk(app.trove, outsider, theirs.id, {
        content: photoA,
        name: 'a.jpg',
      });
      const body = { type: 'manual', title: 'hijacked' };

      const answers = [
        await put(owner, sibling.id, my.attachment.id, body),
        await put(owner, mine.id, their.attachment.id, body),
        await put(owner, theirs.id, their.attachment.id, body),
        await put(owner, mine.id, UNKNOWN_ID, body),
        await remove(owner, sibling.id, my.attachment.id),
        await remove(owner, mine.id, their.attachment.id),
        await remove(owner, theirs.id, their.attachment.id),
        await remove(outsider, mine.id, my.attachment.id),
      ];

      expect(answers.map((answer) => answer.status)).toEqual([
        404, 404, 404, 404, 404, 404, 404, 404,
      ]);
      expect((await getEntity(app.trove, owner, mine.id)).attachments).toEqual([my.attachment]);
      expect((await getEntity(app.trove, outsider, theirs.id)).attachments).toEqual([
        their.attachment,
      ]);
      expect(await storedKeys(app.trove)).toContain(their.attachment.path);
    });
  });
});
