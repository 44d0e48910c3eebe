import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  asForm,
  createItems,
  createLocation,
  createTag,
  hiddenFieldsOf,
  postBulk,
  storedEntities,
} from './bulk-helpers.js';
import { getPage, tableRows, textOf } from './console-helpers.js';

describe('bulk changes (/console/bulk)', () => {
  const app = useTestApp();
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let shelf: { id: string; name: string };
  let garage: { id: string; name: string };
  let attic: { id: string; name: string };
  let fragile: { id: string; name: string };
  let boxes: string[];
  let theirs: { id: string };
  let assetIds: Map<string, string>;

  /** Applies a preview as its Apply button would; where that leads. */
  async function applyPreview(session: Session, preview: { text: string }): Promise<string> {
    const apply = await postBulk(
      app.trove,
      session,
      '/console/bulk/apply',
      asForm(hiddenFieldsOf(preview.text, '/console/bulk/apply')),
    ).expect(303);
    return apply.headers.location;
  }

  /** Previews the form, then applies the preview as its Apply button would. */
  async function previewAndApply(session: Session, form: Record<string, string | string[]>) {
    const preview = await postBulk(app.trove, session, '/console/bulk/preview', form).expect(200);
    const apply = await postBulk(
      app.trove,
      session,
      '/console/bulk/apply',
      asForm(hiddenFieldsOf(preview.text, '/console/bulk/apply')),
    ).expect(303);
    return { preview, location: apply.headers.location };
  }

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    shelf = await createLocation(app.trove, owner, 'Shelf A');
    garage = await createLocation(app.trove, owner, 'Garage');
    attic = await createLocation(app.trove, owner, 'Attic');
    fragile = await createTag(app.trove, owner, 'Fragile');
    boxes = await createItems(app.trove, owner, 'Box', 5, shelf.id);
    await as(app.trove, owner, 'put', `/api/v1/entities/${boxes[0]}`)
      .send({ name: 'Box 001', tagIds: [fragile.id], parentId: shelf.id, quantity: 1 })
      .expect(200);
    await createEntity(app.trove, owner, { name: 'Lamp', parentId: garage.id });
    theirs = await createEntity(app.trove, outsider, { name: 'Their box' });
    const listed = (
      await as(app.trove, owner, 'get', `/api/v1/entities?parentIds=${shelf.id}`).expect(200)
    ).body as { items: { id: string; assetId: string }[] };
    assetIds = new Map(listed.items.map((item) => [item.id, item.assetId]));
  });

  describe('success', () => {
    it('lists what matches by location, words and tags, with the change form', async () => {
      const response = await getPage(app.trove, owner, `/console/bulk?location=${shelf.id}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(tableRows(response.text)).toEqual(
        boxes.map((id, index) => [
          '',
          `Box 00${index + 1}`,
          assetIds.get(id)!,
          'Shelf A',
          index === 0 ? 'Fragile' : '',
          '',
        ]),
      );
      expect(textOf(response.text)).toContain('5 entities match.');
      expect(response.text).toContain('<form method="post" action="/console/bulk/preview">');
      expect(response.text).toMatch(
        new RegExp(`type="checkbox"\\s+name="ids"\\s+value="${boxes[0]}"`),
      );
      expect(response.text).toContain(`<option value="${fragile.id}">`);
      expect(textOf(response.text)).toContain('Preview all 5 matching');

      const words = await getPage(app.trove, owner, '/console/bulk?q=lamp').expect(200);
      expect(tableRows(words.text).map((row) => [row[1], row[3]])).toEqual([['Lamp', 'Garage']]);
      const tagged = await getPage(app.trove, owner, `/console/bulk?tags=${fragile.id}`);
      expect(tableRows(tagged.text).map((row) => row[1])).toEqual(['Box 001']);
      const none = await getPage(app.trove, owner, '/console/bulk?q=zeppelin').expect(200);
      expect(textOf(none.text)).toContain('Nothing matches.');
    });

    it('offers every location in both selects, the chosen one selected, a new one offered and a deleted one gone at once', async () => {
      const chosen = await getPage(app.trove, owner, `/console/bulk?location=${shelf.id}`);
      expect(
        chosen.text.match(new RegExp(`<option value="${shelf.id}" selected>`, 'g')),
      ).toHaveLength(1);
      expect(chosen.text.match(new RegExp(`<option value="${garage.id}">`, 'g'))).toHaveLength(2);
      const loft = await createLocation(app.trove, owner, 'Loft');
      const added = await getPage(app.trove, owner, `/console/bulk?location=${shelf.id}`).expect(
        200,
      );
      expect(added.text.match(new RegExp(`<option value="${loft.id}">`, 'g'))).toHaveLength(2);
      await as(app.trove, owner, 'delete', `/api/v1/entities/${loft.id}`).expect(204);
      const removed = await getPage(app.trove, owner, `/console/bulk?location=${shelf.id}`);
      expect(removed.text).not.toContain(loft.id);
    });

    it('previews a move of all that match, applies it and shows the result', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      const preview = await postBulk(app.trove, owner, '/console/bulk/preview', {
        q: '',
        location: shelf.id,
        selection: 'matching',
        action: 'move',
        parentId: garage.id,
        tagId: '',
        field: '',
        value: '',
      }).expect(200);
      expect(textOf(preview.text)).toContain('Move to Garage: 5 entities.');
      expect(tableRows(preview.text)).toEqual(
        boxes.map((id, index) => [
          `Box 00${index + 1}`,
          assetIds.get(id)!,
          'Shelf A',
          'Garage',
          'changes',
        ]),
      );
      expect(textOf(preview.text)).toContain('Apply to 5 entities');
      // Nothing changed by the preview.
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);

      const location = await applyPreview(owner, preview);
      expect(location).toMatch(/^\/console\/bulk\/result\?/);
      const result = await getPage(app.trove, owner, location).expect(200);
      expect(textOf(result.text)).toContain('5 moved to Garage.');
      expect(textOf(result.text)).toContain('Chosen 5 Changed 5 Left alone 0');
      expect(result.text).toContain(`href="/console/bulk?location=${garage.id}&amp;archived=1"`);
      const stored = await storedEntities(app.trove, owner.groupId);
      expect(
        stored.filter((row) => row.name.startsWith('Box')).map((row) => row.parent_id),
      ).toEqual(boxes.map(() => garage.id));
    });

    it('tags the ticked ones, leaving alone the one already tagged', async () => {
      const { preview, location } = await previewAndApply(member, {
        location: garage.id,
        selection: 'chosen',
        ids: [boxes[0], boxes[1]],
        action: 'addTags',
        tagId: fragile.id,
        parentId: '',
      });
      expect(tableRows(preview.text)).toEqual([
        ['Box 001', assetIds.get(boxes[0])!, 'Fragile', 'Fragile', 'already so'],
        ['Box 002', assetIds.get(boxes[1])!, '(none)', 'Fragile', 'changes'],
      ]);
      const result = await getPage(app.trove, member, location).expect(200);
      expect(textOf(result.text)).toContain('1 tagged Fragile.');
      expect(textOf(result.text)).toContain('Chosen 2 Changed 1 Left alone 1 (already so)');
      const stored = await storedEntities(app.trove, owner.groupId);
      expect(stored.filter((row) => row.tags.length > 0).map((row) => row.name)).toEqual([
        'Box 001',
        'Box 002',
      ]);
    });

    it('sets a field, removes a tag and archives, each from its preview', async () => {
      const set = await previewAndApply(owner, {
        location: garage.id,
        selection: 'chosen',
        ids: [boxes[2], boxes[3]],
        action: 'setFields',
        field: 'manufacturer',
        value: 'Acme',
      });
      expect(tableRows(set.preview.text).map((row) => row.slice(2))).toEqual([
        ['(none)', 'Acme', 'changes'],
        ['(none)', 'Acme', 'changes'],
      ]);
      expect(textOf((await getPage(app.trove, owner, set.location)).text)).toContain(
        '2 set manufacturer to Acme.',
      );
      const untag = await previewAndApply(owner, {
        tags: fragile.id,
        selection: 'matching',
        action: 'removeTags',
        tagId: fragile.id,
      });
      expect(tableRows(untag.preview.text).map((row) => row.slice(2))).toEqual([
        ['Fragile', '(none)', 'changes'],
        ['Fragile', '(none)', 'changes'],
      ]);
      const archive = await previewAndApply(owner, {
        q: 'Box 005',
        selection: 'matching',
        action: 'archive',
      });
      expect(tableRows(archive.preview.text).map((row) => row.slice(2))).toEqual([
        ['no', 'yes', 'changes'],
      ]);
      expect(textOf((await getPage(app.trove, owner, archive.location)).text)).toContain(
        '1 archived.',
      );
      const stored = await storedEntities(app.trove, owner.groupId);
      expect(
        stored
          .filter((row) => row.name.startsWith('Box'))
          .map((row) => [row.name, row.manufacturer, row.tags.join(), row.archived]),
      ).toEqual([
        ['Box 001', '', '', false],
        ['Box 002', '', '', false],
        ['Box 003', 'Acme', '', false],
        ['Box 004', 'Acme', '', false],
        ['Box 005', '', '', true],
      ]);
      // Archived ones show only when asked for.
      const listed = await getPage(app.trove, owner, `/console/bulk?location=${garage.id}`);
      expect(tableRows(listed.text).map((row) => row[1])).not.toContain('Box 005');
      const all = await getPage(app.trove, owner, `/console/bulk?location=${garage.id}&archived=1`);
      expect(tableRows(all.text).map((row) => [row[1], row[5]])).toContainEqual([
        'Box 005',
        'archived',
      ]);
    });

    it('pages a long preview, and applies nothing when the matches changed since', async () => {
      const hall = await createLocation(app.trove, owner, 'Hall');
      await createItems(app.trove, owner, 'Crate', 120, hall.id);
      const form = { location: hall.id, selection: 'matching', action: 'move', parentId: attic.id };
      const first = await postBulk(app.trove, owner, '/console/bulk/preview', form).expect(200);
      expect(textOf(first.text)).toContain('Move to Attic: 120 entities.');
      expect(tableRows(first.text)).toHaveLength(100);
      expect(textOf(first.text)).toContain('Page 1 of 2 · 120 in all');
      const second = await postBulk(app.trove, owner, '/console/bulk/preview', {
        ...form,
        page: '2',
      }).expect(200);
      expect(tableRows(second.text).map((row) => row[0])).toEqual(
        Array.from({ length: 20 }, (_, index) => `Crate ${101 + index}`),
      );

      await createEntity(app.trove, owner, { name: 'Crate 121', parentId: hall.id });
      const before = await storedEntities(app.trove, owner.groupId);
      const stale = await postBulk(
        app.trove,
        owner,
        '/console/bulk/apply',
        asForm(hiddenFieldsOf(first.text, '/console/bulk/apply')),
      ).expect(409);
      expect(textOf(stale.text)).toContain(
        'The choice changed since the preview (120 then, 121 now, or other entities): nothing was changed.',
      );
      expect(textOf(stale.text)).toContain('Move to Attic: 121 entities.');
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('bad input', () => {
    it('names what is wrong, and changes nothing', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      const base = { location: garage.id, selection: 'matching' };
      const tooMany = Array.from({ length: 1001 }, () => randomUUID());
      const cases: [string, Record<string, string | string[]>, string][] = [
        ['preview', { ...base, action: 'explode' }, 'action: action must be one of move'],
        ['preview', { ...base, action: 'move', parentId: '' }, 'parentId: choose a location'],
        ['apply', { ...base, action: 'move', parentId: boxes[0] }, 'parentId: choose a location'],
        ['preview', { ...base, action: 'addTags', tagId: '' }, 'tagId: choose a tag'],
        ['preview', { ...base, action: 'setFields', field: 'name', value: 'x' }, 'field: choose'],
        [
          'preview',
          { ...base, action: 'setFields', field: 'quantity', value: 'many' },
          'fields.quantity',
        ],
        [
          'preview',
          { ...base, action: 'setFields', field: 'insured', value: 'maybe' },
          'fields.insured',
        ],
        [
          'preview',
          { ...base, selection: 'chosen', action: 'archive' },
          'ids: tick at least one entity',
        ],
        [
          'preview',
          { ...base, selection: 'chosen', ids: 'box', action: 'archive' },
          'ids: ids must be UUIDs',
        ],
        ['apply', { ...base, tags: 'fragile', action: 'archive' }, 'tags: tags must be UUIDs'],
        ['apply', { ...base, action: 'archive', count: '0', fingerprint: 'x' }, ''],
      ];
      for (const [step, form, problem] of cases) {
        const response = await postBulk(app.trove, owner, `/console/bulk/${step}`, form);
        const expected = problem === '' ? 409 : 422;
        expect([form, response.status]).toEqual([form, expected]);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        if (problem !== '') {
          expect(textOf(response.text)).toContain('Check the form');
          expect(textOf(response.text)).toContain(problem);
        }
      }
      // More ids than a form may carry fields (a page ticks at most 50) is refused whole.
      await postBulk(app.trove, owner, '/console/bulk/preview', {
        selection: 'chosen',
        ids: tooMany,
        action: 'archive',
      }).expect(413);
      const badQuery = await getPage(app.trove, owner, '/console/bulk?tags=fragile').expect(422);
      expect(textOf(badQuery.text)).toContain('tags: tags must be UUIDs: fragile is not one');
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in, and refuses its form post', async () => {
      const page = await app.trove.http.get('/console/bulk?q=box').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%2Fbulk%3Fq%3Dbox');
      await app.trove.http
        .post('/console/bulk/apply')
        .set('Origin', app.trove.baseUrl)
        .type('form')
        .send({ selection: 'matching', action: 'archive' })
        .expect(401);
    });

    it('shows a viewer no link nor page, and refuses a forged post', async () => {
      const desk = await getPage(app.trove, viewer, '/console').expect(200);
      expect(desk.text).not.toContain('href="/console/bulk"');
      const page = await getPage(app.trove, viewer, '/console/bulk').expect(403);
      expect(page.text).not.toContain('action="/console/bulk/preview"');
      expect(textOf(page.text)).toContain('Not allowed');
      const before = await storedEntities(app.trove, owner.groupId);
      const preview = await postBulk(app.trove, owner, '/console/bulk/preview', {
        location: garage.id,
        selection: 'matching',
        action: 'archive',
      }).expect(200);
      const fields = asForm(hiddenFieldsOf(preview.text, '/console/bulk/apply'));
      for (const step of ['preview', 'apply']) {
        const forged = await postBulk(app.trove, viewer, `/console/bulk/${step}`, fields);
        expect([step, forged.status]).toEqual([step, 403]);
        expect(textOf(forged.text)).toContain('viewers of this collection can only read');
      }
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });

    it('refuses a form posted from another site', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      const response = await postBulk(
        app.trove,
        owner,
        '/console/bulk/apply',
        { location: garage.id, selection: 'matching', action: 'archive' },
        'https://evil.example',
      ).expect(403);
      expect(textOf(response.text)).toContain('This form was sent from another site');
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('shows, previews and changes nothing of another group', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      const page = await getPage(app.trove, outsider, `/console/bulk?location=${garage.id}`);
      expect(page.status).toBe(200);
      expect(textOf(page.text)).toContain('Nothing matches.');
      expect(page.text).not.toContain('Box 001');
      expect(page.text).not.toContain(`<option value="${garage.id}"`);

      const ticked = await postBulk(app.trove, outsider, '/console/bulk/preview', {
        selection: 'chosen',
        ids: boxes,
        action: 'archive',
      }).expect(200);
      expect(textOf(ticked.text)).toContain('Archive: 0 entities.');
      expect(ticked.text).not.toContain('action="/console/bulk/apply"');
      const forged = await postBulk(app.trove, outsider, '/console/bulk/apply', {
        selection: 'chosen',
        ids: boxes,
        action: 'archive',
        count: '5',
        fingerprint: 'x',
      }).expect(409);
      expect(textOf(forged.text)).toContain('nothing was changed');
      const move = await postBulk(app.trove, outsider, '/console/bulk/preview', {
        selection: 'chosen',
        ids: [theirs.id],
        action: 'move',
        parentId: garage.id,
      }).expect(422);
      expect(textOf(move.text)).toContain('parentId: choose a location of the group to move to');
      const tag = await postBulk(app.trove, outsider, '/console/bulk/preview', {
        selection: 'chosen',
        ids: [theirs.id],
        action: 'addTags',
        tagId: fragile.id,
      }).expect(422);
      expect(textOf(tag.text)).toContain('tagId: choose a tag of the group');
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });
});
