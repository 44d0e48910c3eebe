import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, useTestApp, type EntityBody } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { historyOf } from '../history/history-helpers.js';
import { getPage, tableRows, textOf } from './console-helpers.js';

const CSV_HEADER = 'When,Member,Entity,Entity ID,Kind,Operation,Field,Before,After';

/** The changes a history page lists: each one's line without its time, and its field rows. */
function changesOf(html: string): { line: string; fields: string[][] }[] {
  return html
    .split('<li class="change">')
    .slice(1)
    .map((item) => {
      const [line] = item.split('</p>');
      return {
        line: textOf(line).replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · /, ''),
        fields: tableRows(item.split('</li>')[0]),
      };
    });
}

/** The lines of the changes a history page lists. */
const linesOf = (html: string): string[] => changesOf(html).map((change) => change.line);

describe('the history (/console/history)', () => {
  const app = useTestApp();
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let ladder: EntityBody;
  let hammer: EntityBody;
  let theirs: EntityBody;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Olga' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    ladder = await createEntity(app.trove, owner, 'Ladder');
    hammer = await createEntity(app.trove, member, 'Hammer');
    await as(app.trove, member, 'patch', `/api/v1/entities/${ladder.id}`)
      .send({ quantity: 2 })
      .expect(200);
    const crate = await createEntity(app.trove, owner, 'Crate');
    await as(app.trove, owner, 'delete', `/api/v1/entities/${crate.id}`).expect(204);
    theirs = await createEntity(app.trove, outsider, 'Secret ladder');
  });

  const PATCHED = 'PATCH /api/v1/entities/{id}';
  const CREATED = 'POST /api/v1/entities';
  const updatedLadder = () => `${member.name} updated Ladder (${PATCHED}) · its history`;
  const createdHammer = () => `${member.name} created Hammer (${CREATED}) · its history`;
  const createdLadder = `Olga created Ladder (${CREATED}) · its history`;

  describe('success', () => {
    it('shows an owner the group’s changes newest first, each field before and after', async () => {
      const response = await getPage(app.trove, owner, '/console/history').expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const changes = changesOf(response.text);
      expect(changes.slice(0, 4).map((change) => change.line)).toEqual([
        'Olga deleted Crate (DELETE /api/v1/entities/{id}) · its history',
        `Olga created Crate (${CREATED}) · its history`,
        updatedLadder(),
        createdHammer(),
      ]);
      expect(changes[2].fields).toEqual([['quantity', '1', '2']]);
      expect(response.text).toContain(`<option value="${member.id}">`);
      expect(response.text).toContain('name="kind"');
      expect(response.text).toContain('href="/console/history.csv"');
      expect(response.text).not.toContain('Secret ladder');
    });

    it('narrows to a member, a kind, an entity and days', async () => {
      const byMember = await getPage(app.trove, owner, `/console/history?member=${member.id}`);
      expect(linesOf(byMember.text)).toEqual([updatedLadder(), createdHammer()]);
      const deleted = await getPage(app.trove, owner, '/console/history?kind=delete');
      expect(linesOf(deleted.text)).toEqual([
        'Olga deleted Crate (DELETE /api/v1/entities/{id}) · its history',
      ]);
      const ofLadder = await getPage(app.trove, owner, `/console/history?entity=${ladder.id}`);
      expect(linesOf(ofLadder.text)).toEqual([updatedLadder(), createdLadder]);
      expect(textOf(ofLadder.text)).toContain(`Changes of Ladder (${ladder.id})`);
      const today = new Date().toISOString().slice(0, 10);
      const todays = await getPage(
        app.trove,
        owner,
        `/console/history?entity=${ladder.id}&kind=update&from=${today}&to=${today}`,
      );
      expect(linesOf(todays.text)).toEqual([updatedLadder()]);
      expect(todays.text).toContain(`<option value="update" selected>`);
      const long = await getPage(
        app.trove,
        owner,
        '/console/history?from=2000-01-01&to=2000-01-02',
      );
      expect(linesOf(long.text)).toEqual([]);
      expect(textOf(long.text)).toContain('No change matches.');
    });

    it('finds an entity by words of its name, linking to its history', async () => {
      const response = await getPage(app.trove, owner, '/console/history?find=ladder').expect(200);
      expect(response.text).toContain(`href="/console/history?entity=${ladder.id}"`);
      expect(response.text).not.toContain(theirs.id);
    });

    it('downloads the changes as CSV, one record per field, with the page’s filters', async () => {
      const [update] = (await historyOf(app.trove, owner, ladder.id)).items;
      const response = await getPage(
        app.trove,
        owner,
        `/console/history.csv?entity=${ladder.id}&kind=update`,
      ).expect(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="history.csv"');
      expect(response.text).toBe(
        `${CSV_HEADER}\n` +
          `${update.changedAt},${member.name},Ladder,${ladder.id},updated,${PATCHED},quantity,1,2\n`,
      );
      const byMember = await getPage(
        app.trove,
        owner,
        `/console/history.csv?member=${member.id}`,
      ).expect(200);
      const records = byMember.text.trim().split('\n');
      expect(records[0]).toBe(CSV_HEADER);
      expect(records[1]).toContain(`,Ladder,${ladder.id},updated,${PATCHED},quantity,1,2`);
      expect(new Set(records.slice(2).map((record) => record.split(',')[2]))).toEqual(
        new Set(['Hammer']),
      );
      expect(records.slice(2).map((record) => record.split(',')[6])).toContain('name');
    });

    it('links an item’s page of the desk to its history', async () => {
      const item = await getPage(app.trove, member, `/console/items/${hammer.id}`).expect(200);
      expect(item.text).toContain(`href="/console/history?entity=${hammer.id}"`);
    });
  });

  describe('bad input', () => {
    it('shows which filter is wrong, on the page and the download', async () => {
      for (const [query, problem] of [
        ['from=yesterday', 'from: from must be a day (YYYY-MM-DD)'],
        ['to=2026-02-30', 'to: to must be a day (YYYY-MM-DD)'],
        ['from=2026-02-01&to=2026-01-01', 'to: to must not be before from'],
        ['member=42', 'member: member must be a UUID'],
        ['entity=ladder', 'entity: entity must be a UUID'],
        ['kind=moved', 'kind: kind must be one of the following values: create, update, delete'],
      ]) {
        for (const path of ['/console/history', '/console/history.csv']) {
          const response = await getPage(app.trove, owner, `${path}?${query}`);
          expect([path, query, response.status]).toEqual([path, query, 422]);
          expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(textOf(response.text)).toContain('Check the form');
          expect(textOf(response.text)).toContain(problem);
        }
      }
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in and back', async () => {
      const page = await app.trove.http.get('/console/history?kind=update').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%2Fhistory%3Fkind%3Dupdate');
      const csv = await app.trove.http.get('/console/history.csv').expect(302);
      expect(csv.headers.location).toBe('/sign-in?next=%2Fconsole%2Fhistory.csv');
    });

    it('gives a member who is not an owner an entity’s history, as the API does', async () => {
      const start = await getPage(app.trove, member, '/console/history').expect(200);
      expect(textOf(start.text)).toContain('The whole group’s changes, by member, kind and day');
      expect(start.text).not.toContain('name="member"');
      expect(linesOf(start.text)).toEqual([]);

      const ofLadder = await getPage(app.trove, viewer, `/console/history?entity=${ladder.id}`);
      expect(ofLadder.status).toBe(200);
      expect(linesOf(ofLadder.text)).toEqual([updatedLadder(), createdLadder]);
      expect(changesOf(ofLadder.text)[0].fields).toEqual([['quantity', '1', '2']]);
      expect(ofLadder.text).not.toContain('method="post" action="/console');
      expect(ofLadder.text).toContain(`href="/console/history.csv?entity=${ladder.id}"`);

      const csv = await getPage(app.trove, viewer, `/console/history.csv?entity=${ladder.id}`);
      expect(csv.status).toBe(200);
      expect(csv.text.split('\n')[1]).toContain(
        `,Ladder,${ladder.id},updated,${PATCHED},quantity,1,2`,
      );

      for (const path of [
        `/console/history?member=${member.id}`,
        `/console/history?entity=${ladder.id}&kind=create`,
        '/console/history.csv',
        `/console/history.csv?from=2026-01-01&entity=${ladder.id}`,
      ]) {
        const refused = await getPage(app.trove, member, path);
        expect([path, refused.status]).toEqual([path, 403]);
        expect(textOf(refused.text)).toContain(
          'only the owner of this collection can perform this action',
        );
      }
    });
  });

  describe('another group', () => {
    it('shows nothing of another group', async () => {
      const theirPage = await getPage(app.trove, outsider, '/console/history').expect(200);
      expect(theirPage.text).not.toContain(ladder.id);
      expect(linesOf(theirPage.text)[0]).toBe(
        `Eve created Secret ladder (${CREATED}) · its history`,
      );
      const asked = await getPage(app.trove, outsider, `/console/history?entity=${ladder.id}`);
      expect(linesOf(asked.text)).toEqual([]);
      const csv = await getPage(app.trove, outsider, `/console/history.csv?entity=${ladder.id}`);
      expect(csv.text).toBe(`${CSV_HEADER}\n`);
      const notOurs = await getPage(app.trove, viewer, `/console/history?entity=${theirs.id}`);
      expect(notOurs.status).toBe(404);
      expect(textOf(notOurs.text)).toContain(`entity ${theirs.id} not found`);
      await getPage(app.trove, viewer, `/console/history.csv?entity=${theirs.id}`).expect(404);
    });
  });

  describe('many changes', () => {
    it('pages the list and sends every change in the CSV, read in batches', async () => {
      const bulk = '11111111-2222-4333-8444-555555555555';
      await app.trove.query(
        `INSERT INTO entity_history
           (group_id, entity_id, entity_name, transaction_id, actor_id, actor, operation, action,
            changes)
         SELECT $1, $2, 'Bulk', 900000000 + g, NULL,
                '{"type":"system","id":null,"name":"Trove","apiKey":null,"issuer":null}',
                'system', 'update',
                jsonb_build_object('quantity', jsonb_build_object('before', g, 'after', g + 1))
         FROM generate_series(1, 1201) g ORDER BY g`,
        [owner.groupId, bulk],
      );
      const second = await getPage(app.trove, owner, `/console/history?entity=${bulk}&page=2`);
      expect(textOf(second.text)).toContain('Page 2 of 49 · 1201 in all');
      expect(changesOf(second.text).map((change) => change.fields[0])).toEqual(
        Array.from({ length: 25 }, (_, index) => {
          const before = 1201 - 25 - index;
          return ['quantity', String(before), String(before + 1)];
        }),
      );
      const csv = await getPage(app.trove, owner, `/console/history.csv?entity=${bulk}`).expect(
        200,
      );
      const records = csv.text.trim().split('\n');
      expect(records).toHaveLength(1202);
      expect(records.slice(1).map((record) => record.split(',').slice(1, 9).join(','))).toEqual(
        Array.from(
          { length: 1201 },
          (_, index) =>
            `Trove,Bulk,${bulk},updated,system,quantity,${1201 - index},${1202 - index}`,
        ),
      );
    });
  });
});
