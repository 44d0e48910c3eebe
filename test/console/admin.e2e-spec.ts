import { beforeAll, describe, expect, it } from 'vitest';
import { InstanceBackupsService } from '../../src/operations/instance-backups/instance-backups.service.js';
import { as, useTestApp } from '../support/api.js';
import { signUp, signUpMember, uniqueEmail, type Session } from '../support/factories.js';
import { doneOf, getPage, postForm, tableRows, textOf } from './console-helpers.js';

const ADMIN_EMAIL = uniqueEmail('root');

describe('administration (/console/admin)', () => {
  const app = useTestApp({ TROVE_ADMIN_EMAILS: ADMIN_EMAIL });
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let admin: Session;

  /** The roles of the group's members, by user id, as stored. */
  const roles = async (groupId: string) =>
    Object.fromEntries(
      (
        await app.trove.query<{ user_id: string; role: string }>(
          'SELECT user_id, role FROM group_memberships WHERE group_id = $1',
          [groupId],
        )
      ).map((row) => [row.user_id, row.role]),
    );
  const invitationIds = async (groupId: string) =>
    (
      await app.trove.query<{ id: string }>(
        'SELECT id FROM group_invitation_tokens WHERE group_id = $1 AND uses > 0 ORDER BY id',
        [groupId],
      )
    ).map((row) => row.id);
  const disabledAt = async (userId: string) =>
    (
      await app.trove.query<{ disabled_at: Date | null }>(
        'SELECT disabled_at FROM users WHERE id = $1',
        [userId],
      )
    )[0].disabled_at;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    admin = await signUp(app.trove, { name: 'Root', email: ADMIN_EMAIL });
  });

  describe('a group owner', () => {
    it('sees the members with their roles, the invitations and the group’s settings', async () => {
      const response = await getPage(app.trove, owner, '/console/admin').expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      const rows = tableRows(response.text);
      const byEmail = (a: string[], b: string[]) => a[1].localeCompare(b[1]);
      expect(rows.map((row) => row.slice(0, 3)).sort(byEmail)).toEqual(
        [
          ['Ada (you)', owner.email, 'active'],
          ['Test User', member.email, 'active'],
          ['Test User', viewer.email, 'active'],
        ].sort(byEmail),
      );
      expect(rows[0][0]).toBe('Ada (you)');
      expect(response.text).toContain(`action="/console/admin/members/${member.id}/role"`);
      expect(response.text).toContain(`action="/console/admin/members/${member.id}/remove"`);
      expect(response.text).not.toContain(`action="/console/admin/members/${owner.id}/remove"`);
      expect(response.text).toMatch(/<option value="viewer"\s+selected\s*>/);
      expect(response.text).toContain('value="Ada&#39;s Home"');
      expect(response.text).toMatch(/<option\s+value="USD"\s+selected\s*>/);
      expect(textOf(response.text)).toContain('No invitation can be used now.');
      // Not an instance administrator: nothing of the instance.
      expect(response.text).not.toContain('/console/admin/users');
      expect(textOf(response.text)).not.toContain('Single sign-on');
    });

    it('changes a member’s role and renames the group with its currency', async () => {
      const changed = await postForm(app.trove, owner, `/console/admin/members/${viewer.id}/role`, {
        role: 'user',
      }).expect(303);
      expect(doneOf(changed.headers.location)).toBe('Test User is now user.');
      expect((await roles(owner.groupId))[viewer.id]).toBe('user');
      await postForm(app.trove, owner, `/console/admin/members/${viewer.id}/role`, {
        role: 'viewer',
      }).expect(303);
      expect((await roles(owner.groupId))[viewer.id]).toBe('viewer');

      const saved = await postForm(app.trove, owner, '/console/admin/group', {
        name: 'Workshop',
        currency: 'EUR',
      }).expect(303);
      expect(doneOf(saved.headers.location)).toBe('Saved the group: Workshop, prices in EUR.');
      const group = await as(app.trove, owner, 'get', '/api/v1/groups').expect(200);
      expect(group.body).toMatchObject({ name: 'Workshop', currency: 'EUR' });
      const page = await getPage(app.trove, owner, saved.headers.location).expect(200);
      expect(textOf(page.text)).toContain('Saved the group: Workshop, prices in EUR.');
    });

    it('creates an invitation, shows its token once, and deletes it', async () => {
      const created = await postForm(app.trove, owner, '/console/admin/invitations', {
        role: 'viewer',
        uses: '3',
        expiresOn: '2099-01-31',
      }).expect(200);
      expect(textOf(created.text)).toContain(
        'An invitation for 3 people as viewer, valid until 2099-01-31 23:59 UTC.',
      );
      const token = /id="invitation-token" type="text" value="([^"]+)"/.exec(created.text)![1];
      const [stored] = await app.trove.query<{ id: string; uses: number; role: string }>(
        'SELECT id, uses, role FROM group_invitation_tokens WHERE group_id = $1 AND uses > 0',
        [owner.groupId],
      );
      expect(stored).toMatchObject({ uses: 3, role: 'viewer' });
      expect(token.length).toBeGreaterThan(20);

      const listed = await getPage(app.trove, owner, '/console/admin').expect(200);
      expect(tableRows(listed.text).filter((row) => row.length === 4)).toEqual([
        ['viewer', '3', '2099-01-31 23:59 UTC', 'Delete this invitation'],
      ]);
      const deleted = await postForm(
        app.trove,
        owner,
        `/console/admin/invitations/${stored.id}/delete`,
        {},
      ).expect(303);
      expect(doneOf(deleted.headers.location)).toBe('Deleted the invitation.');
      expect(await invitationIds(owner.groupId)).toEqual([]);
    });

    it('removes a member', async () => {
      const leaving = await signUpMember(app.trove, owner, 'user');
      const removed = await postForm(
        app.trove,
        owner,
        `/console/admin/members/${leaving.id}/remove`,
        {},
      ).expect(303);
      expect(doneOf(removed.headers.location)).toBe('Removed Test User from the group.');
      expect(Object.keys(await roles(owner.groupId)).sort()).toEqual(
        [owner.id, member.id, viewer.id].sort(),
      );
    });
  });

  describe('bad input', () => {
    it('shows what is wrong and changes nothing', async () => {
      const before = await roles(owner.groupId);
      const badRole = await postForm(app.trove, owner, `/console/admin/members/${member.id}/role`, {
        role: 'emperor',
      }).expect(422);
      expect(textOf(badRole.text)).toContain('Check the form');
      expect(textOf(badRole.text)).toContain('role');
      const demoteSelf = await postForm(
        app.trove,
        owner,
        `/console/admin/members/${owner.id}/role`,
        { role: 'user' },
      );
      expect(demoteSelf.status).toBe(409);
      const removeSelf = await postForm(
        app.trove,
        owner,
        `/console/admin/members/${owner.id}/remove`,
        {},
      );
      expect(removeSelf.status).toBe(400);
      expect(await roles(owner.groupId)).toEqual(before);

      const badGroup = await postForm(app.trove, owner, '/console/admin/group', {
        name: '',
        currency: 'XYZ',
      }).expect(422);
      expect(textOf(badGroup.text)).toContain('name');
      const noCurrency = await postForm(app.trove, owner, '/console/admin/group', {
        name: 'Other',
        currency: 'XYZ',
      }).expect(422);
      expect(textOf(noCurrency.text)).toContain("currency 'XYZ' is not supported");
      const group = await as(app.trove, owner, 'get', '/api/v1/groups').expect(200);
      expect(group.body).toMatchObject({ name: 'Workshop', currency: 'EUR' });

      for (const form of [
        { role: 'user', uses: '0', expiresOn: '' },
        { role: 'owner', uses: '1', expiresOn: '' },
        { role: 'user', uses: '1', expiresOn: '2001-01-01' },
      ]) {
        const response = await postForm(app.trove, owner, '/console/admin/invitations', form);
        expect([form, response.status]).toEqual([form, 422]);
      }
      expect(await invitationIds(owner.groupId)).toEqual([]);
      await postForm(app.trove, owner, '/console/admin/members/nope/role', { role: 'user' }).expect(
        400,
      );
    });
  });

  describe('an instance administrator', () => {
    it('sees how people get in, and every user and group', async () => {
      const overview = await getPage(app.trove, admin, '/console/admin').expect(200);
      const text = textOf(overview.text);
      expect(text).toContain(
        'Single sign-on not configured SCIM provisioning not configured Sign-in with a password on ' +
          'Registration without an invitation open Addresses in TROVE_ADMIN_EMAILS 1',
      );
      const users = await getPage(app.trove, admin, '/console/admin/users').expect(200);
      const rows = tableRows(users.text).map((row) => row.slice(0, 3).concat(row.slice(4)));
      expect(rows.slice(0, 3)).toEqual([
        ['Ada', owner.email, '1', 'active', 'Disable Ada'],
        ['Eve', outsider.email, '1', 'active', 'Disable Eve'],
        ['Root (administrator)', admin.email, '1', 'active', 'you'],
      ]);
      // The three members who joined Ada's group by invitation; the one removed is in none.
      expect(rows.slice(3).map((row) => [row[0], row[2], row[3], row[4]])).toEqual([
        ['Test User', expect.any(String), 'active', 'Disable Test User'],
        ['Test User', expect.any(String), 'active', 'Disable Test User'],
        ['Test User', expect.any(String), 'active', 'Disable Test User'],
      ]);
      expect(
        rows
          .slice(3)
          .map((row) => row[2])
          .sort(),
      ).toEqual(['0', '1', '1']);
      const found = await getPage(app.trove, admin, '/console/admin/users?q=EVE').expect(200);
      expect(tableRows(found.text).map((row) => row[0])).toEqual(['Eve']);
      const groups = await getPage(app.trove, admin, '/console/admin/groups').expect(200);
      expect(tableRows(groups.text).map((row) => row.slice(0, 2))).toEqual([
        ["Eve's Home", '1'],
        ["Root's Home", '1'],
        ['Workshop', '3'],
      ]);
      const none = await getPage(app.trove, admin, '/console/admin/groups?q=zeppelin').expect(200);
      expect(textOf(none.text)).toContain('No group matches.');
    });

    it('sees the instance backups made, with their state and rehearsed restore', async () => {
      const empty = await getPage(app.trove, admin, '/console/admin/backups').expect(200);
      expect(textOf(empty.text)).toContain('No instance backup has been made yet.');
      const run = await app.trove.app
        .get(InstanceBackupsService)
        .run('command', new Date('2026-11-28T03:30:00.000Z'));
      const page = await getPage(app.trove, admin, '/console/admin/backups').expect(200);
      const rows = tableRows(page.text);
      const totalRows = Object.values(run.manifest.tables).reduce((sum, n) => sum + n, 0);
      expect(rows).toEqual([
        [
          '2026-11-28 03:30 UTC',
          'npm run backup',
          'kept',
          `${(run.size / 1024 / 1024).toFixed(1)} MiB`,
          String(totalRows),
          '0',
          expect.stringMatching(/^passed \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
          run.locations[0],
        ],
      ]);
      expect(run.locations[0]).toBe(
        `${app.trove.config.backups.instanceDir}/trove-backup-2026-11-28T03-30-00-000Z.tar.gz`,
      );
      const overview = await getPage(app.trove, admin, '/console/admin').expect(200);
      expect(overview.text).toContain('href="/console/admin/backups"');
    });

    it('disables and enables a user, back on the same search', async () => {
      const disabled = await postForm(
        app.trove,
        admin,
        `/console/admin/users/${outsider.id}/disable`,
        { q: 'eve', page: '1' },
      ).expect(303);
      expect(disabled.headers.location).toBe(
        '/console/admin/users?q=eve&page=1&done=Disabled+Eve.',
      );
      expect(await disabledAt(outsider.id)).not.toBeNull();
      await as(app.trove, outsider, 'get', '/api/v1/users/self').expect(401);
      const listed = await getPage(app.trove, admin, disabled.headers.location).expect(200);
      expect(tableRows(listed.text)[0].slice(4)).toEqual(['disabled', 'Enable Eve']);
      const enabled = await postForm(
        app.trove,
        admin,
        `/console/admin/users/${outsider.id}/enable`,
        {},
      ).expect(303);
      expect(doneOf(enabled.headers.location)).toBe('Enabled Eve.');
      expect(await disabledAt(outsider.id)).toBeNull();
    });

    it('cannot disable their own account', async () => {
      const response = await postForm(
        app.trove,
        admin,
        `/console/admin/users/${admin.id}/disable`,
        {},
      ).expect(409);
      expect(textOf(response.text)).toContain('you cannot disable your own account');
      expect(await disabledAt(admin.id)).toBeNull();
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in, and refuses its form post', async () => {
      const page = await app.trove.http.get('/console/admin/users').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%2Fadmin%2Fusers');
      await app.trove.http
        .post(`/console/admin/users/${member.id}/disable`)
        .set('Origin', app.trove.baseUrl)
        .type('form')
        .send({})
        .expect(401);
      expect(await disabledAt(member.id)).toBeNull();
    });

    it('shows a member or viewer who owns nothing a 403 page, and refuses their posts', async () => {
      for (const caller of [member, viewer]) {
        const page = await getPage(app.trove, caller, '/console/admin').expect(403);
        expect(textOf(page.text)).toContain(
          'only owners of this group and instance administrators can open administration',
        );
        const nav = await getPage(app.trove, caller, '/console').expect(200);
        expect(nav.text).not.toContain('href="/console/admin"');
      }
      const before = await roles(owner.groupId);
      const forged = await postForm(app.trove, viewer, `/console/admin/members/${viewer.id}/role`, {
        role: 'owner',
      }).expect(403);
      expect(textOf(forged.text)).toContain('only the owner of this collection');
      const byUser = await postForm(
        app.trove,
        member,
        `/console/admin/members/${viewer.id}/remove`,
        {},
      ).expect(403);
      expect(textOf(byUser.text)).toContain('only the owner of this collection');
      await postForm(app.trove, member, '/console/admin/invitations', { uses: '1' }).expect(403);
      expect(await roles(owner.groupId)).toEqual(before);
      expect(await invitationIds(owner.groupId)).toEqual([]);
    });

    it('refuses the instance pages and posts to owners who do not administer the instance', async () => {
      for (const path of [
        '/console/admin/users',
        '/console/admin/groups',
        '/console/admin/backups',
      ]) {
        const page = await getPage(app.trove, owner, path).expect(403);
        expect(textOf(page.text)).toContain('only instance administrators can do this');
      }
      await postForm(app.trove, owner, `/console/admin/users/${outsider.id}/disable`, {}).expect(
        403,
      );
      await postForm(app.trove, viewer, `/console/admin/users/${outsider.id}/disable`, {}).expect(
        403,
      );
      expect(await disabledAt(outsider.id)).toBeNull();
    });

    it('refuses a form posted from another site', async () => {
      const response = await postForm(
        app.trove,
        admin,
        `/console/admin/users/${member.id}/disable`,
        {},
        'https://evil.example',
      ).expect(403);
      expect(textOf(response.text)).toContain('This form was sent from another site');
      const role = await postForm(
        app.trove,
        owner,
        `/console/admin/members/${member.id}/role`,
        { role: 'viewer' },
        'https://evil.example',
      ).expect(403);
      expect(textOf(role.text)).toContain('This form was sent from another site');
      expect(await disabledAt(member.id)).toBeNull();
      expect((await roles(owner.groupId))[member.id]).toBe('user');
    });
  });

  describe('another group', () => {
    it('changes no member of another group', async () => {
      const outsider = await signUp(app.trove, { name: 'Mallory' });
      const page = await getPage(app.trove, outsider, '/console/admin').expect(200);
      expect(page.text).not.toContain(member.email);
      const role = await postForm(app.trove, outsider, `/console/admin/members/${member.id}/role`, {
        role: 'viewer',
      });
      expect(role.status).toBe(404);
      const removed = await postForm(
        app.trove,
        outsider,
        `/console/admin/members/${member.id}/remove`,
        {},
      );
      expect(removed.status).toBe(404);
      const invitation = (
        await as(app.trove, owner, 'post', '/api/v1/groups/invitations')
          .send({ uses: 1 })
          .expect(200)
      ).body as { id: string };
      await postForm(
        app.trove,
        outsider,
        `/console/admin/invitations/${invitation.id}/delete`,
        {},
      ).expect(404);
      expect(await invitationIds(owner.groupId)).toEqual([invitation.id]);
      expect((await roles(owner.groupId))[member.id]).toBe('user');
    });
  });
});
