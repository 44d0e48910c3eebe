import { beforeAll, describe, expect, it } from 'vitest';
import { EntityHistoryService } from '../../src/inventory/history/entity-history.service.js';
import { as, createEntity, useTestApp, type EntityBody } from '../support/api.js';
import { expectUnauthenticated, OWNER_ONLY, validation } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { ENTRY_KEYS, historyOf, userActor, type HistoryPage } from './history-helpers.js';

describe('GET /api/v1/audit', () => {
  const app = useTestApp({ TROVE_AUDIT_RETENTION_DAYS: '30' });
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let first: EntityBody;
  let second: EntityBody;
  let hidden: EntityBody;

  const audit = async (session: Session, query = ''): Promise<HistoryPage> => {
    const response = await as(app.trove, session, 'get', `/api/v1/audit${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as HistoryPage;
  };

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Olga' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    first = await createEntity(app.trove, owner, 'Ladder');
    second = await createEntity(app.trove, member, 'Hammer');
    await as(app.trove, member, 'patch', `/api/v1/entities/${first.id}`)
      .send({ quantity: 2 })
      .expect(200);
    hidden = await createEntity(app.trove, outsider, 'Secret');
  });

  describe('success', () => {
    it('lists the group’s changes newest first, with the entity’s entries in the exact shape', async () => {
      const page = await audit(owner);
      const ours = page.items.filter((entry) => [first.id, second.id].includes(entry.entityId));
      expect(ours.map((entry) => [entry.entityName, entry.action, entry.actor.id])).toEqual([
        ['Ladder', 'update', member.id],
        ['Hammer', 'create', member.id],
        ['Ladder', 'create', owner.id],
      ]);
      expect(Object.keys(ours[0]).sort()).toEqual(ENTRY_KEYS);
      expect(ours[0]).toEqual({
        id: expect.any(String),
        entityId: first.id,
        entityName: 'Ladder',
        action: 'update',
        operation: 'PATCH /api/v1/entities/{id}',
        changedAt: expect.any(String),
        actor: userActor(member),
        changes: [{ field: 'quantity', before: 1, after: 2 }],
      });
      expect(page.items.some((entry) => entry.entityId === hidden.id)).toBe(false);
      expect(page.total).toBe(page.items.length);
    });

    it('filters by actor, entity and time window', async () => {
      const byMember = await audit(owner, `?actorId=${member.id}`);
      expect(byMember.items.map((entry) => entry.entityName)).toEqual(['Ladder', 'Hammer']);

      const ofLadder = await audit(owner, `?entityId=${first.id}&pageSize=1`);
      expect(ofLadder).toMatchObject({ page: 1, pageSize: 1, total: 2 });
      expect(ofLadder.items.map((entry) => entry.action)).toEqual(['update']);

      const all = await audit(owner);
      const [newest] = all.items;
      const exactlyNewest = await audit(
        owner,
        `?since=${encodeURIComponent(newest.changedAt)}&entityId=${newest.entityId}`,
      );
      expect(exactlyNewest.items.map((entry) => entry.id)).toEqual([newest.id]);
      const beforeAll = await audit(
        owner,
        `?until=${encodeURIComponent(all.items.at(-1)!.changedAt)}`,
      );
      expect(beforeAll.total).toBe(0);
      expect((await audit(owner, '?since=2000-01-01&until=2000-01-02')).items).toEqual([]);
    });

    it('filters by kind of change, with the other filters', async () => {
      const updates = await audit(owner, '?action=update');
      expect(updates.items.map((entry) => [entry.entityName, entry.action])).toEqual([
        ['Ladder', 'update'],
      ]);
      expect(updates.total).toBe(1);
      const created = await audit(owner, `?action=create&actorId=${member.id}`);
      expect(created.items.map((entry) => [entry.entityName, entry.action])).toEqual([
        ['Hammer', 'create'],
      ]);
      expect((await audit(owner, `?action=delete&entityId=${first.id}`)).total).toBe(0);
    });

    it('purges changes older than TROVE_AUDIT_RETENTION_DAYS', async () => {
      const old = await createEntity(app.trove, owner, 'Old radio');
      await app.trove.query(
        `UPDATE entity_history SET changed_at = now() - interval '31 days' WHERE entity_id = $1`,
        [old.id],
      );
      const purged = await app.trove.app.get(EntityHistoryService).purge(new Date());
      expect(purged).toBe(1);
      expect((await historyOf(app.trove, owner, old.id)).total).toBe(0);
      expect((await historyOf(app.trove, owner, first.id)).total).toBe(2);
    });
  });

  describe('bad input', () => {
    it('refuses bad times, ids and paging, naming the parameter', async () => {
      for (const [query, field, message] of [
        ['?since=yesterday', 'since', 'since must be a valid ISO 8601 date string'],
        ['?until=2026-13-01', 'until', 'until must be a valid ISO 8601 date string'],
        ['?since=2026-02-01&until=2026-01-01', 'until', 'until must not be before since'],
        ['?actorId=42', 'actorId', 'actorId must be a UUID'],
        ['?entityId=x', 'entityId', 'entityId must be a UUID'],
        [
          '?action=moved',
          'action',
          'action must be one of the following values: create, update, delete',
        ],
        ['?pageSize=1000', 'pageSize', 'pageSize must not be greater than 500'],
      ]) {
        const response = await as(app.trove, owner, 'get', `/api/v1/audit${query}`);
        expect(response.status, query).toBe(422);
        expect(response.body).toEqual(validation({ [field]: message }));
      }
    });
  });

  describe('access', () => {
    it('needs a valid token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/audit');
    });

    it('is for owners only', async () => {
      for (const session of [member, viewer]) {
        const response = await as(app.trove, session, 'get', '/api/v1/audit');
        expect(response.status).toBe(403);
        expect(response.body).toEqual(OWNER_ONLY);
      }
    });

    it('shows another group’s owner only their own group', async () => {
      const theirs = await audit(outsider);
      const ids = theirs.items.map((entry) => entry.entityId);
      expect(ids[0]).toBe(hidden.id);
      expect(ids).not.toContain(first.id);
      expect(ids).not.toContain(second.id);
      // The rest are the starter locations made with the group, by Trove itself.
      expect(new Set(theirs.items.slice(1).map((entry) => entry.actor.type))).toEqual(
        new Set(['system']),
      );
      const asked = await audit(outsider, `?entityId=${first.id}`);
      expect(asked).toEqual({ page: 1, pageSize: 50, total: 0, items: [] });
    });
  });
});
