import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/identity/auth/sha256.js';
import { openFeed } from '../events/feed.js';
import { Browser } from '../oidc/browser.js';
import {
  callbackUrl,
  DISABLED_LOCATION,
  oidcEnv,
  sessionToken,
  signInWithOidc,
} from '../oidc/sign-in.js';
import { TestProvider } from '../oidc/test-provider.js';
import { signIn, signUp, uniqueEmail, type Session } from '../support/factories.js';
import { collectRoutes } from '../support/routes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SCIM_TOKEN = `scim-${randomBytes(24).toString('hex')}`;
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SHARED_GROUP = 'Acme Inventory';

interface ScimUser {
  id: string;
  userName: string;
  externalId?: string;
  active: boolean;
  emails: { value: string }[];
  meta: { created: string; lastModified: string; location: string };
}

const scimError = (status: number, detail: string, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/**
 * SCIM provisioning as an identity provider's client runs it, against a Trove whose users sign in
 * through a real OpenID provider into the shared group.
 */
describe('SCIM 2.0 user provisioning', () => {
  let idp: TestProvider;
  let trove: TestApp;
  let base: string;
  const bearer = `Bearer ${SCIM_TOKEN}`;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(
      oidcEnv(idp, { TROVE_OIDC_SHARED_GROUP: SHARED_GROUP, TROVE_SCIM_TOKEN: SCIM_TOKEN }),
    );
    idp.registerClient([callbackUrl(trove)]);
    base = `${trove.baseUrl}/scim/v2`;
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  const scim = {
    get: (path: string) => trove.http.get(`/scim/v2${path}`).set('Authorization', bearer),
    post: (path: string, body: unknown) =>
      trove.http
        .post(`/scim/v2${path}`)
        .set('Authorization', bearer)
        .set('Content-Type', 'application/scim+json')
        .send(JSON.stringify(body)),
    put: (path: string, body: unknown) =>
      trove.http
        .put(`/scim/v2${path}`)
        .set('Authorization', bearer)
        .set('Content-Type', 'application/scim+json')
        .send(JSON.stringify(body)),
    patch: (path: string, operations: unknown[]) =>
      trove.http
        .patch(`/scim/v2${path}`)
        .set('Authorization', bearer)
        .set('Content-Type', 'application/scim+json')
        .send(JSON.stringify({ schemas: [PATCH_SCHEMA], Operations: operations })),
    delete: (path: string) => trove.http.delete(`/scim/v2${path}`).set('Authorization', bearer),
  };

  /** A SCIM answer's JSON (supertest does not parse `application/scim+json`). */
  const json = <T = Record<string, unknown>>(response: { text: string }): T =>
    JSON.parse(response.text) as T;

  const userCount = async (): Promise<number> =>
    Number((await trove.query<{ count: string }>('SELECT count(*) FROM users'))[0].count);

  const newPerson = (given: string) => {
    const sub = `sub-${randomBytes(6).toString('hex')}`;
    const email = uniqueEmail(given.toLowerCase());
    idp.addAccount(sub, { email, email_verified: true, name: `${given} Provider` });
    return { sub, email };
  };

  const provision = async (
    person: { email: string },
    userName: string,
    extra: Record<string, unknown> = {},
  ): Promise<ScimUser> => {
    const response = await scim
      .post('/Users', {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Jo', familyName: 'Doe' },
        emails: [{ value: person.email, type: 'work', primary: true }],
        active: true,
        ...extra,
      })
      .expect(201);
    return json<ScimUser>(response);
  };

  /** Signs in through the provider; the session token, or undefined when the account is disabled. */
  const ssoSignIn = async (sub: string): Promise<string | undefined> => {
    const browser = new Browser();
    const { callback } = await signInWithOidc(browser, trove, idp, sub);
    if (callback.location === `${trove.baseUrl}${DISABLED_LOCATION}`) return undefined;
    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    return `Bearer ${sessionToken(browser, trove)}`;
  };

  let admin: { sub: string; email: string; id: string; authorization: string };

  describe('discovery', () => {
    it('answers ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json', async () => {
      const config = await scim.get('/ServiceProviderConfig').expect(200);
      expect(config.headers['content-type']).toBe('application/scim+json; charset=utf-8');
      expect(json(config)).toMatchObject({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        bulk: { supported: false },
        filter: { supported: true, maxResults: 200 },
        sort: { supported: false },
        etag: { supported: false },
        changePassword: { supported: false },
        authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
        meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
      });
      const types = json<{ totalResults: number; Resources: { id: string }[] }>(
        await scim.get('/ResourceTypes').expect(200),
      );
      expect(types.Resources.map((type) => type.id)).toEqual(['User', 'Group']);
      expect(json(await scim.get('/ResourceTypes/User').expect(200))).toMatchObject({
        id: 'User',
        endpoint: '/Users',
        schema: USER_SCHEMA,
      });
      const schemas = json<{ Resources: { id: string }[] }>(await scim.get('/Schemas').expect(200));
      expect(schemas.Resources.map((schema) => schema.id)).toEqual([
        USER_SCHEMA,
        'urn:ietf:params:scim:schemas:core:2.0:Group',
      ]);
      expect(json(await scim.get(`/Schemas/${USER_SCHEMA}`).expect(200))).toMatchObject({
        id: USER_SCHEMA,
        name: 'User',
      });
    });
  });

  describe('authentication', () => {
    it('answers 401 with a SCIM error without the token, with a wrong one, or with a Trove session', async () => {
      const local = await signUp(trove);
      for (const authorization of [
        undefined,
        'Bearer wrong-token',
        local.authorization,
        SCIM_TOKEN,
      ]) {
        const request = trove.http.get('/scim/v2/Users');
        if (authorization) request.set('Authorization', authorization);
        const response = await request.expect(401);
        expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
        expect(response.headers['www-authenticate']).toBe('Bearer realm="trove-scim"');
        expect(json(response)).toEqual(
          scimError(
            401,
            authorization === undefined || authorization === SCIM_TOKEN
              ? 'the SCIM bearer token is required'
              : 'the SCIM bearer token is not valid',
          ),
        );
      }
      const routes = collectRoutes(trove.app).filter((route) => route.path.startsWith('/scim/v2/'));
      expect(routes).toHaveLength(20);
      for (const route of routes) {
        const path = route.path
          .replace(':id', admin?.id ?? '00000000-0000-4000-8000-000000000000')
          .replace('*path', 'Widgets');
        const method = (route.method === 'ALL' ? 'get' : route.method.toLowerCase()) as
          'get' | 'post' | 'put' | 'patch' | 'delete';
        const response = await trove.http[method](path);
        expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 401,
        });
      }
      const before = await userCount();
      await trove.http
        .post('/scim/v2/Users')
        .set('Authorization', 'Bearer wrong-token')
        .send({ schemas: [USER_SCHEMA], userName: uniqueEmail('nobody') })
        .expect(401);
      expect(await userCount()).toBe(before);
    });
  });

  describe('an identity provider provisioning users', () => {
    it('creates the first user, who owns the shared group and signs in without an invitation', async () => {
      const person = newPerson('Ada');
      const created = await provision(person, person.email.toUpperCase(), {
        externalId: 'ext-ada',
        displayName: 'Ada Admin',
      });
      const id = created.id;
      expect(created).toEqual({
        schemas: [USER_SCHEMA],
        id: expect.any(String),
        externalId: 'ext-ada',
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: `${base}/Users/${id}`,
        },
        userName: person.email.toUpperCase(),
        name: { formatted: 'Ada Admin', givenName: 'Jo', familyName: 'Doe' },
        displayName: 'Ada Admin',
        active: true,
        emails: [{ value: person.email, type: 'work', primary: true }],
      });
      const authorization = await ssoSignIn(person.sub);
      expect(authorization).toBeDefined();
      const self = await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', authorization!)
        .expect(200);
      expect(self.body.item).toMatchObject({ id, email: person.email, oidcSubject: person.sub });
      const group = await trove.http
        .get('/api/v1/groups')
        .set('Authorization', authorization!)
        .expect(200);
      expect(group.body).toMatchObject({ name: SHARED_GROUP });
      admin = { ...person, id, authorization: authorization! };
    });

    it('runs a provider’s session: create with externalId, filter, page, patch active off and on, replace, delete', async () => {
      const person = newPerson('Jo');
      const created = await provision(person, 'jdoe', { externalId: 'ext-1' });
      expect(created).toMatchObject({ userName: 'jdoe', externalId: 'ext-1', active: true });
      expect(json(await scim.get(`/Users/${created.id}`).expect(200))).toEqual(created);

      // Matching as providers do: by userName (any case), by externalId, by state.
      for (const filter of [
        'userName eq "JDOE"',
        'externalId eq "ext-1"',
        'userName sw "jd" and active eq true',
      ]) {
        const found = json<{ totalResults: number; Resources: ScimUser[] }>(
          await scim.get(`/Users?filter=${encodeURIComponent(filter)}`).expect(200),
        );
        expect({ filter, found }).toEqual({
          filter,
          found: {
            schemas: [LIST_SCHEMA],
            totalResults: 1,
            startIndex: 1,
            itemsPerPage: 1,
            Resources: [created],
          },
        });
      }
      const none = json(
        await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "EXT-1"')}`).expect(200),
      );
      expect(none).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });

      // Paging, oldest first: the admin, then Jo.
      const all = json<{ totalResults: number; Resources: ScimUser[] }>(
        await scim.get('/Users').expect(200),
      );
      expect(all.Resources.map((user) => user.id)).toEqual([admin.id, created.id]);
      const second = json(await scim.get('/Users?startIndex=2&count=1').expect(200));
      expect(second).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 2,
        startIndex: 2,
        itemsPerPage: 1,
        Resources: [created],
      });
      const names = json<{ Resources: Record<string, unknown>[] }>(
        await scim.get('/Users?count=1&attributes=userName').expect(200),
      );
      expect(names.Resources).toEqual([
        { schemas: [USER_SCHEMA], id: admin.id, userName: admin.email.toUpperCase() },
      ]);

      // Taken names are refused.
      const taken = await scim
        .post('/Users', {
          schemas: [USER_SCHEMA],
          userName: 'JDoe',
          emails: [{ value: uniqueEmail('x') }],
        })
        .expect(409);
      expect(json(taken)).toEqual(
        scimError(409, "userName 'JDoe' is already in use", 'uniqueness'),
      );
      const sameEmail = await scim
        .post('/Users', {
          schemas: [USER_SCHEMA],
          userName: 'other',
          emails: [{ value: person.email }],
        })
        .expect(409);
      expect(json(sameEmail)).toEqual(
        scimError(
          409,
          `a user with the e-mail address ${person.email} already exists`,
          'uniqueness',
        ),
      );

      // The user signs in (linked by e-mail), makes an API key, watches the change feed.
      const authorization = (await ssoSignIn(person.sub))!;
      expect(authorization).toBeDefined();
      const key = await trove.http
        .post('/api/v1/users/self/api-keys')
        .set('Authorization', authorization)
        .send({ name: 'script' })
        .expect(201);
      const apiKey = (key.body as { token: string }).token;
      const entity = await trove.http
        .post('/api/v1/entities')
        .set('Authorization', apiKey)
        .send({ name: 'Laptop' })
        .expect(201);
      for (const credential of [authorization, apiKey]) {
        await trove.http.get('/api/v1/entities').set('Authorization', credential).expect(200);
        await trove.http.get('/api/v1/entities').set('Authorization', credential).expect(200);
      }
      const feed = await openFeed(trove.baseUrl, { headers: { Authorization: authorization } });

      // Disabled as Microsoft Entra ID sends it: every credential refused at once.
      const disabled = await scim
        .patch(`/Users/${created.id}`, [{ op: 'Replace', path: 'active', value: 'False' }])
        .expect(200);
      expect(json(disabled)).toMatchObject({ id: created.id, active: false, externalId: 'ext-1' });
      for (const credential of [authorization, apiKey]) {
        const refused = await trove.http
          .get('/api/v1/entities')
          .set('Authorization', credential)
          .expect(401);
        expect(refused.body).toEqual({ error: 'valid authorization token is required' });
      }
      expect(await feed.closed).toEqual({
        code: 1008,
        reason: 'valid authorization token is required',
      });
      expect(await ssoSignIn(person.sub)).toBeUndefined();
      const members = await trove.http
        .get('/api/v1/groups/members')
        .set('Authorization', admin.authorization)
        .expect(200);
      expect(members.body).toContainEqual({
        id: created.id,
        name: 'Jo Doe',
        email: person.email,
        role: 'user',
        disabled: true,
      });
      // What they did stays theirs.
      const history = await trove.http
        .get(`/api/v1/entities/${(entity.body as { id: string }).id}/history`)
        .set('Authorization', admin.authorization)
        .expect(200);
      expect((history.body as { items: { actor: { id: string } }[] }).items[0].actor).toMatchObject(
        { id: created.id },
      );
      const inactive = json<{ Resources: ScimUser[] }>(
        await scim.get(`/Users?filter=${encodeURIComponent('active eq false')}`).expect(200),
      );
      expect(inactive.Resources.map((user) => user.id)).toEqual([created.id]);

      // Enabled again: a new sign-in works; the old API key stays gone.
      const enabled = await scim
        .patch(`/Users/${created.id}`, [{ op: 'replace', value: { active: true } }])
        .expect(200);
      expect(json(enabled)).toMatchObject({ active: true });
      const again = await ssoSignIn(person.sub);
      expect(again).toBeDefined();
      await trove.http.get('/api/v1/entities').set('Authorization', again!).expect(200);
      await trove.http.get('/api/v1/entities').set('Authorization', apiKey).expect(401);

      // Replace: what is sent is stored; externalId and active stay when left out.
      const replaced = await scim
        .put(`/Users/${created.id}`, {
          schemas: [USER_SCHEMA],
          userName: 'john.doe',
          name: { formatted: 'John Doe' },
          emails: [{ value: person.email, primary: true }],
        })
        .expect(200);
      expect(json(replaced)).toMatchObject({
        userName: 'john.doe',
        displayName: 'John Doe',
        externalId: 'ext-1',
        active: true,
      });
      const self = await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', again!)
        .expect(200);
      expect(self.body.item).toMatchObject({ name: 'John Doe', email: person.email });

      // Deleted as account deletion does it.
      const deleted = await scim.delete(`/Users/${created.id}`).expect(204);
      expect(deleted.text).toBe('');
      expect(json(await scim.get(`/Users/${created.id}`).expect(404))).toEqual(
        scimError(404, `Resource ${created.id} not found`),
      );
      await trove.http.get('/api/v1/users/self').set('Authorization', again!).expect(401);
      expect(await trove.query('SELECT id FROM users WHERE id = $1', [created.id])).toEqual([]);
    });

    it('creates a user disabled with active false, and refuses one without emails', async () => {
      const person = newPerson('Kim');
      const before = await userCount();
      const withoutEmails = await scim
        .post('/Users', { schemas: [USER_SCHEMA], userName: person.email })
        .expect(400);
      expect(json(withoutEmails)).toEqual(
        scimError(400, "Required attribute 'emails' is missing", 'invalidValue'),
      );
      expect(await userCount()).toBe(before);
      const created = await provision(person, person.email, { active: false });
      expect(created).toMatchObject({
        userName: person.email,
        active: false,
        emails: [{ value: person.email }],
      });
      expect(await ssoSignIn(person.sub)).toBeUndefined();
      await scim
        .patch(`/Users/${created.id}`, [{ op: 'replace', path: 'active', value: true }])
        .expect(200);
      expect(await ssoSignIn(person.sub)).toBeDefined();
    });
  });

  describe('bad input', () => {
    it('answers 400 with SCIM errors for malformed filters, bodies and parameters, and writes nothing', async () => {
      const before = await userCount();
      const cases: [Promise<{ status: number; text: string }>, ReturnType<typeof scimError>][] = [
        [
          scim.get(`/Users?filter=${encodeURIComponent('userName eq')}`),
          scimError(400, "'userName' is compared with a string", 'invalidFilter'),
        ],
        [
          scim.get(`/Users?filter=${encodeURIComponent('(userName eq "a"')}`),
          scimError(400, `Missing closing ')' token in filter '(userName eq "a"'`, 'invalidFilter'),
        ],
        [
          scim.get(`/Users?filter=${encodeURIComponent('title eq "boss"')}`),
          scimError(400, "filtering on 'title' is not supported", 'invalidFilter'),
        ],
        [
          scim.get(`/Users?filter=${encodeURIComponent('active eq "maybe"')}`),
          scimError(400, "'active' takes eq or ne with true or false", 'invalidFilter'),
        ],
        [
          scim.get('/Users?startIndex=first'),
          scimError(400, 'startIndex must be an integer', 'invalidValue'),
        ],
        [
          trove.http
            .post('/scim/v2/Users')
            .set('Authorization', bearer)
            .set('Content-Type', 'application/scim+json')
            .send('{"userName": '),
          scimError(400, 'the request body is not valid JSON', 'invalidSyntax'),
        ],
        [
          scim.post('/Users', { schemas: [USER_SCHEMA], emails: [{ value: uniqueEmail('x') }] }),
          scimError(400, "Required attribute 'userName' is missing", 'invalidValue'),
        ],
        [
          scim.post('/Users', { schemas: [USER_SCHEMA], userName: 'nomail' }),
          scimError(400, "Required attribute 'emails' is missing", 'invalidValue'),
        ],
        [
          scim.post('/Users', {
            schemas: [USER_SCHEMA],
            userName: 'x',
            emails: [{ value: uniqueEmail('x') }],
            active: 'yes',
          }),
          scimError(
            400,
            "Attribute 'active' expected value type 'boolean' but found type 'string'",
            'invalidValue',
          ),
        ],
        [
          scim.post('/Users', ['not', 'an', 'object']),
          scimError(400, 'expected a User resource as a JSON object', 'invalidSyntax'),
        ],
        [
          trove.http
            .patch(`/scim/v2/Users/${admin.id}`)
            .set('Authorization', bearer)
            .send({ Operations: [{ op: 'replace', value: { active: false } }] }),
          scimError(
            400,
            "PatchOp request body messages must exclusively specify schema as 'urn:ietf:params:scim:api:messages:2.0:PatchOp'",
            'invalidSyntax',
          ),
        ],
        [
          scim.patch(`/Users/${admin.id}`, [{ op: 'explode', path: 'active', value: false }]),
          scimError(
            400,
            "Invalid operation 'explode' for operation 1 in PatchOp request body",
            'invalidSyntax',
          ),
        ],
      ];
      for (const [request, expected] of cases) {
        const response = await request;
        expect({ status: response.status, body: json(response) }).toEqual({
          status: 400,
          body: expected,
        });
      }
      expect(await userCount()).toBe(before);
      const adminNow = json<ScimUser>(await scim.get(`/Users/${admin.id}`).expect(200));
      expect(adminNow.active).toBe(true);
    });
  });

  describe('another group', () => {
    let outsider: Session;
    beforeAll(async () => {
      outsider = await signUp(trove, { name: 'Olga Outsider' });
    });

    it('reaches no user outside the shared group by id or filter, and changes nothing', async () => {
      const path = `/Users/${outsider.id}`;
      const notFound = scimError(404, `Resource ${outsider.id} not found`);
      expect(json(await scim.get(path).expect(404))).toEqual(notFound);
      expect(
        json(await scim.patch(path, [{ op: 'replace', path: 'active', value: false }]).expect(404)),
      ).toEqual(notFound);
      expect(
        json(
          await scim
            .put(path, {
              schemas: [USER_SCHEMA],
              userName: 'taken',
              emails: [{ value: uniqueEmail('t') }],
            })
            .expect(404),
        ),
      ).toEqual(notFound);
      expect(json(await scim.delete(path).expect(404))).toEqual(notFound);
      expect(json(await scim.get('/Users/not-a-uuid').expect(404))).toEqual(
        scimError(404, 'Resource not-a-uuid not found'),
      );
      const filtered = json(
        await scim
          .get(`/Users?filter=${encodeURIComponent(`emails.value eq "${outsider.email}"`)}`)
          .expect(200),
      );
      expect(filtered).toMatchObject({ totalResults: 0, Resources: [] });
      await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', outsider.authorization)
        .expect(200);
      // Nor can their e-mail address be taken over by a provisioned user.
      const takeover = await scim
        .post('/Users', {
          schemas: [USER_SCHEMA],
          userName: 'olga',
          emails: [{ value: outsider.email }],
        })
        .expect(409);
      expect(json(takeover)).toMatchObject({ scimType: 'uniqueness' });
    });
  });

  describe('a disabled user with a password', () => {
    let member: Omit<Session, 'groupId' | 'name'>;
    let scimId: string;

    beforeAll(async () => {
      // A local user who joined the shared group by invitation; SCIM finds them by e-mail.
      const invitation = await trove.http
        .post('/api/v1/groups/invitations')
        .set('Authorization', admin.authorization)
        .send({ uses: 1 })
        .expect(200);
      const email = uniqueEmail('lee');
      await trove.http
        .post('/api/v1/users/register')
        .send({
          name: 'Lee Local',
          email,
          password: 'correct horse battery',
          token: invitation.body.token,
        })
        .expect(204);
      const session = await signIn(trove, email, 'correct horse battery');
      const self = await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', session.authorization)
        .expect(200);
      member = { ...session, id: (self.body as { item: { id: string } }).item.id };
      const found = json<{ Resources: ScimUser[] }>(
        await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`).expect(200),
      );
      scimId = found.Resources[0].id;
      expect(scimId).toBe(member.id);
    });

    it('cannot sign in, reset a password or accept an invitation, and appears disabled to owners', async () => {
      // A reset link issued before the account was disabled.
      const resetToken = randomBytes(32).toString('base64url');
      await trove.query(
        `INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
        [member.id, sha256(resetToken)],
      );
      const other = await signUp(trove, { name: 'Other Owner' });
      const invitation = await trove.http
        .post('/api/v1/groups/invitations')
        .set('Authorization', other.authorization)
        .send({ uses: 1 })
        .expect(200);

      await scim
        .patch(`/Users/${scimId}`, [{ op: 'replace', path: 'active', value: false }])
        .expect(200);

      const login = await trove.http
        .post('/api/v1/users/login')
        .send({ username: member.email, password: 'correct horse battery' })
        .expect(403);
      expect(login.body).toEqual({ error: 'this account is disabled; ask your administrator' });
      const wrong = await trove.http
        .post('/api/v1/users/login')
        .send({ username: member.email, password: 'not the password' })
        .expect(401);
      expect(wrong.body).toEqual({ error: 'unauthorized' });
      const reset = await trove.http
        .post('/api/v1/users/reset-password')
        .send({ token: resetToken, password: 'another good password' })
        .expect(403);
      expect(reset.body).toEqual({ error: 'this account is disabled; ask your administrator' });
      expect(
        await trove.query('SELECT used_at FROM password_resets WHERE user_id = $1', [member.id]),
      ).toEqual([{ used_at: null }]);
      const accept = await trove.http
        .post(`/api/v1/groups/invitations/${invitation.body.token}`)
        .set('Authorization', member.authorization)
        .expect(401);
      expect(accept.body).toEqual({ error: 'valid authorization token is required' });
      expect(
        await trove.query('SELECT uses FROM group_invitation_tokens WHERE id = $1', [
          invitation.body.id,
        ]),
      ).toEqual([{ uses: 1 }]);
      const members = await trove.http
        .get('/api/v1/groups/members')
        .set('Authorization', admin.authorization)
        .expect(200);
      expect(members.body).toContainEqual({
        id: member.id,
        name: 'Lee Local',
        email: member.email,
        role: 'user',
        disabled: true,
      });

      await scim
        .patch(`/Users/${scimId}`, [{ op: 'replace', path: 'active', value: true }])
        .expect(200);
      await signIn(trove, member.email, 'correct horse battery');
    });
  });
});

describe('SCIM without TROVE_SCIM_TOKEN', () => {
  let trove: TestApp;
  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('answers 404 like an unknown route', async () => {
    for (const path of ['/scim/v2/Users', '/scim/v2/ServiceProviderConfig']) {
      const response = await trove.http
        .get(path)
        .set('Authorization', 'Bearer anything')
        .expect(404);
      expect(response.body).toEqual({ error: `Cannot GET ${path}` });
    }
  });
});
