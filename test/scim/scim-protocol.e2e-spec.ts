import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackUrl, oidcEnv } from '../oidc/sign-in.js';
import { TestProvider } from '../oidc/test-provider.js';
import { uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SCIM_TOKEN = `scim-${randomBytes(24).toString('hex')}`;
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const SCIM_TYPE = 'application/scim+json; charset=utf-8';

const scimError = (status: number, detail: string, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** SCIM's endpoint as a whole: searches, projections, lists, and errors for whatever it lacks. */
describe('SCIM 2.0 protocol', () => {
  let idp: TestProvider;
  let trove: TestApp;
  const bearer = `Bearer ${SCIM_TOKEN}`;
  const users: { id: string; userName: string; email: string }[] = [];

  const json = <T = Record<string, unknown>>(response: { text: string }): T =>
    JSON.parse(response.text) as T;
  const send = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: unknown,
  ) => {
    const request = trove.http[method](`/scim/v2${path}`).set('Authorization', bearer);
    return body === undefined
      ? request
      : request.set('Content-Type', 'application/scim+json').send(JSON.stringify(body));
  };
  const userCount = async (): Promise<number> =>
    Number((await trove.query<{ count: string }>('SELECT count(*) FROM users'))[0].count);

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(
      oidcEnv(idp, { TROVE_OIDC_SHARED_GROUP: 'Acme', TROVE_SCIM_TOKEN: SCIM_TOKEN }),
    );
    idp.registerClient([callbackUrl(trove)]);
    for (const userName of ['ada', 'grace', 'linus']) {
      const email = uniqueEmail(userName);
      const created = await send('post', '/Users', {
        schemas: [USER_SCHEMA],
        userName,
        emails: [{ value: email, primary: true }],
      }).expect(201);
      users.push({ id: json<{ id: string }>(created).id, userName, email });
    }
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  describe('searching with POST /Users/.search', () => {
    it('finds users as GET /Users does, with attributes as a list', async () => {
      const response = await send('post', '/Users/.search', {
        schemas: [SEARCH_SCHEMA],
        filter: 'userName sw "a" or userName eq "linus"',
        attributes: ['userName'],
        startIndex: 1,
        count: 10,
      }).expect(200);
      expect(response.headers['content-type']).toBe(SCIM_TYPE);
      expect(json(response)).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 2,
        startIndex: 1,
        itemsPerPage: 2,
        Resources: [
          { schemas: [USER_SCHEMA], id: users[0].id, userName: 'ada' },
          { schemas: [USER_SCHEMA], id: users[2].id, userName: 'linus' },
        ],
      });
      const paged = json<{ totalResults: number; itemsPerPage: number; Resources: unknown[] }>(
        await send('post', '/Users/.search', { schemas: [SEARCH_SCHEMA], startIndex: 2, count: 1 }),
      );
      expect([paged.totalResults, paged.itemsPerPage, paged.Resources.length]).toEqual([3, 1, 1]);
    });

    it('answers 400 for a message that is not a SearchRequest or a bad filter', async () => {
      const notSearch = await send('post', '/Users/.search', { filter: 'userName eq "ada"' });
      expect([notSearch.status, json(notSearch)]).toEqual([
        400,
        scimError(400, `a SearchRequest names ${SEARCH_SCHEMA}`, 'invalidSyntax'),
      ]);
      const badFilter = await send('post', '/Users/.search', {
        schemas: [SEARCH_SCHEMA],
        filter: 'userName eq',
      });
      expect(badFilter.status).toBe(400);
      expect(json<{ scimType: string }>(badFilter).scimType).toBe('invalidFilter');
      const badAttributes = await send('post', '/Users/.search', {
        schemas: [SEARCH_SCHEMA],
        attributes: [1],
      });
      expect([badAttributes.status, json(badAttributes)]).toEqual([
        400,
        scimError(400, 'attributes must be a list of attribute names', 'invalidValue'),
      ]);
    });

    it('answers 401 without the token', async () => {
      const response = await trove.http
        .post('/scim/v2/Users/.search')
        .set('Content-Type', 'application/scim+json')
        .send(JSON.stringify({ schemas: [SEARCH_SCHEMA] }))
        .expect(401);
      expect(json(response)).toEqual(scimError(401, 'the SCIM bearer token is required'));
    });
  });

  describe('projections and lists', () => {
    it('keeps schemas and id in a resource cut down by attributes or excludedAttributes', async () => {
      const one = json(await send('get', `/Users/${users[1].id}?attributes=emails`).expect(200));
      expect(one).toEqual({
        schemas: [USER_SCHEMA],
        id: users[1].id,
        emails: [{ value: users[1].email, type: 'work', primary: true }],
      });
      const without = json(
        await send('get', `/Users/${users[1].id}?excludedAttributes=emails,meta,name`).expect(200),
      );
      expect(without).toEqual({
        schemas: [USER_SCHEMA],
        id: users[1].id,
        userName: 'grace',
        displayName: 'grace',
        active: true,
      });
    });

    it('counts the discovery lists’ items as they are', async () => {
      for (const path of ['/ResourceTypes', '/Schemas']) {
        const list = json<{ totalResults: number; itemsPerPage: number; Resources: unknown[] }>(
          await send('get', path).expect(200),
        );
        expect([path, list.itemsPerPage, list.totalResults]).toEqual([
          path,
          list.Resources.length,
          list.Resources.length,
        ]);
      }
    });
  });

  describe('the User schema as Trove keeps it', () => {
    let entraId: string;

    it('serves only the attributes Trove keeps, with emails required', async () => {
      const schema = json<{
        attributes: { name: string; required: boolean; subAttributes?: { name: string }[] }[];
      }>(await send('get', `/Schemas/${USER_SCHEMA}`).expect(200));
      expect(
        schema.attributes.map((attribute) => [
          attribute.name,
          attribute.required,
          attribute.subAttributes?.map((sub) => sub.name) ?? [],
        ]),
      ).toEqual([
        ['userName', true, []],
        ['name', false, ['formatted', 'familyName', 'givenName', 'middleName']],
        ['displayName', false, []],
        ['active', false, []],
        ['emails', true, ['value', 'type', 'primary']],
      ]);
    });

    it('accepts what Entra ID and Okta send by default, and ignores what it does not keep', async () => {
      const email = uniqueEmail('entra');
      const created = await send('post', '/Users', {
        schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
        externalId: 'entra-object-1',
        userName: email,
        active: true,
        displayName: 'Kim Entra',
        title: 'Engineer',
        preferredLanguage: 'en-GB',
        emails: [{ primary: true, type: 'Work', value: email }],
        phoneNumbers: [{ type: 'mobile', value: '+44 20 7946 0000' }],
        addresses: [{ type: 'work', formatted: '1 Road', primary: false }],
        roles: [{ primary: 'True', type: 'WindowsAzureActiveDirectoryRole', value: 'Reader' }],
        name: { givenName: 'Kim', familyName: 'Entra', honorificPrefix: 'Dr' },
        [ENTERPRISE_SCHEMA]: { department: 'IT', manager: { value: users[0].id } },
      }).expect(201);
      const user = json<Record<string, unknown> & { id: string }>(created);
      entraId = user.id;
      expect(user).toEqual({
        schemas: [USER_SCHEMA],
        id: user.id,
        externalId: 'entra-object-1',
        userName: email,
        name: { formatted: 'Kim Entra', givenName: 'Kim', familyName: 'Entra' },
        displayName: 'Kim Entra',
        emails: [{ value: email, type: 'work', primary: true }],
        active: true,
        meta: expect.objectContaining({ resourceType: 'User' }) as unknown,
      });
    });

    it('changes the name when a PATCH changes one of its parts, as Entra ID sends a new surname', async () => {
      const renamed = json(
        await send('patch', `/Users/${entraId}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [{ op: 'Replace', path: 'name.familyName', value: 'Smith' }],
        }).expect(200),
      );
      expect(renamed).toMatchObject({
        name: { formatted: 'Kim Smith', givenName: 'Kim', familyName: 'Smith' },
        displayName: 'Kim Smith',
      });
      const [stored] = await trove.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [
        entraId,
      ]);
      expect(stored.name).toBe('Kim Smith');
      const okta = json(
        await send('patch', `/Users/${entraId}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [
            { op: 'replace', value: { name: { givenName: 'Kimberly', familyName: 'Smith' } } },
          ],
        }).expect(200),
      );
      expect(okta).toMatchObject({
        name: { formatted: 'Kimberly Smith', givenName: 'Kimberly', familyName: 'Smith' },
      });
      const shown = json(
        await send('patch', `/Users/${entraId}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [{ op: 'replace', path: 'displayName', value: 'Kim S.' }],
        }).expect(200),
      );
      expect(shown).toMatchObject({ displayName: 'Kim S.', name: { formatted: 'Kim S.' } });
    });

    it('changes the e-mail through a value filter in the path, as Entra ID and Okta send it', async () => {
      const target = users[1];
      const email = uniqueEmail('grace-filtered');
      const changed = json<{ emails: unknown[] }>(
        await send('patch', `/Users/${target.id}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: email }],
        }).expect(200),
      );
      expect(changed.emails).toEqual([{ value: email, type: 'work', primary: true }]);
      const [stored] = await trove.query<{ email: string }>(
        'SELECT email FROM users WHERE id = $1',
        [target.id],
      );
      expect(stored.email).toBe(email);
      users[1] = { ...target, email };
    });

    it('removes externalId with a PATCH remove, and makes an added primary address the e-mail', async () => {
      const target = users[2];
      await send('patch', `/Users/${target.id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'add', path: 'externalId', value: 'okta-00u1' }],
      }).expect(200);
      const removed = json(
        await send('patch', `/Users/${target.id}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [{ op: 'remove', path: 'externalId' }],
        }).expect(200),
      );
      expect(removed).not.toHaveProperty('externalId');
      expect(json(await send('get', `/Users/${target.id}`).expect(200))).not.toHaveProperty(
        'externalId',
      );
      const newEmail = uniqueEmail('linus-new');
      const moved = json<{ emails: unknown[] }>(
        await send('patch', `/Users/${target.id}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [
            {
              op: 'add',
              path: 'emails',
              value: [{ value: newEmail, type: 'Work', primary: true }],
            },
          ],
        }).expect(200),
      );
      expect(moved.emails).toEqual([{ value: newEmail, type: 'work', primary: true }]);
      const [stored] = await trove.query<{ email: string }>(
        'SELECT email FROM users WHERE id = $1',
        [target.id],
      );
      expect(stored.email).toBe(newEmail);
    });
  });

  describe('PATCH on every attribute Trove keeps', () => {
    it('removes optional attributes and parts of the name, replaces the e-mails, and refuses removing the last address', async () => {
      const email = uniqueEmail('patchy');
      const created = json<{ id: string }>(
        await send('post', '/Users', {
          schemas: [USER_SCHEMA],
          userName: 'patchy',
          displayName: 'Pat Chy',
          name: { givenName: 'Pat', middleName: 'Q', familyName: 'Chy' },
          emails: [{ value: email, primary: true }],
        }).expect(201),
      );
      const patched = async (...Operations: unknown[]) => {
        const response = await send('patch', `/Users/${created.id}`, {
          schemas: [PATCH_SCHEMA],
          Operations,
        });
        return { status: response.status, body: json<Record<string, unknown>>(response) };
      };
      // A part of the name goes; the others stay.
      expect(await patched({ op: 'remove', path: 'name.middleName' })).toMatchObject({
        status: 200,
        body: { name: { formatted: 'Pat Chy', givenName: 'Pat', familyName: 'Chy' } },
      });
      // Without displayName, the name is the parts joined.
      const withoutDisplayName = await patched(
        { op: 'remove', path: 'displayName' },
        { op: 'remove', path: 'name.formatted' },
        { op: 'replace', path: 'name.givenName', value: 'Patricia' },
      );
      expect(withoutDisplayName).toMatchObject({
        status: 200,
        body: { displayName: 'Patricia Chy', name: { givenName: 'Patricia', familyName: 'Chy' } },
      });
      expect(withoutDisplayName.body.name).not.toHaveProperty('middleName');
      // The e-mails replaced as a whole.
      const newEmail = uniqueEmail('patricia');
      expect(
        await patched({
          op: 'replace',
          path: 'emails',
          value: [{ value: newEmail, primary: true }],
        }),
      ).toMatchObject({ status: 200, body: { emails: [{ value: newEmail, primary: true }] } });
      // Trove needs an address: removing the last one is refused, and nothing changes.
      const refused = await patched({ op: 'remove', path: `emails[value eq "${newEmail}"]` });
      expect(refused).toEqual({
        status: 400,
        body: scimError(
          400,
          "Required attribute 'emails' is missing for 'remove' op of operation 1 in PatchOp request body",
          'invalidValue',
        ),
      });
      const stored = await trove.query<{ email: string; name: string }>(
        'SELECT email, name FROM users WHERE id = $1',
        [created.id],
      );
      expect(stored).toEqual([{ email: newEmail, name: 'Patricia Chy' }]);
    });
  });

  describe('what no route takes', () => {
    it('answers SCIM errors: 404 for an unknown path, 405 with Allow, 501 for what is not offered', async () => {
      const cases: [
        string,
        'get' | 'post' | 'put' | 'patch' | 'delete',
        number,
        string,
        string?,
      ][] = [
        ['/Widgets', 'get', 404, 'no SCIM endpoint at /Widgets'],
        ['', 'get', 404, 'no SCIM endpoint at /'],
        ['/Users/x/y', 'get', 404, 'no SCIM endpoint at /Users/x/y'],
        [
          '/Users',
          'delete',
          405,
          'DELETE is not supported on /Users; it takes GET, POST',
          'GET, POST',
        ],
        ['/Users', 'put', 405, 'PUT is not supported on /Users; it takes GET, POST', 'GET, POST'],
        [
          `/Users/${users[0].id}`,
          'post',
          405,
          `POST is not supported on /Users/${users[0].id}; it takes GET, PUT, PATCH, DELETE`,
          'GET, PUT, PATCH, DELETE',
        ],
        ['/Schemas', 'post', 405, 'POST is not supported on /Schemas; it takes GET', 'GET'],
        [
          '/ServiceProviderConfig',
          'patch',
          405,
          'PATCH is not supported on /ServiceProviderConfig; it takes GET',
          'GET',
        ],
        ['/Bulk', 'post', 501, 'bulk operations (RFC 7644 §3.7) are not supported'],
        ['/Me', 'get', 501, 'the /Me endpoint (RFC 7644 §3.11) is not supported'],
        [
          '/.search',
          'post',
          501,
          'searching every resource type at once (RFC 7644 §3.4.3) is not supported; POST /Users/.search or /Groups/.search',
        ],
      ];
      const before = await userCount();
      for (const [path, method, status, detail, allow] of cases) {
        const response = await send(method, path, method === 'get' ? undefined : {});
        expect({
          request: `${method} ${path}`,
          status: response.status,
          type: response.headers['content-type'],
          allow: response.headers.allow,
          body: json(response),
        }).toEqual({
          request: `${method} ${path}`,
          status,
          type: SCIM_TYPE,
          allow,
          body: scimError(status, detail),
        });
      }
      expect(await userCount()).toBe(before);
    });

    it('asks for the token first, and answers as unknown routes do while SCIM is off', async () => {
      const response = await trove.http.get('/scim/v2/Widgets').expect(401);
      expect(json(response)).toEqual(scimError(401, 'the SCIM bearer token is required'));
      const off = await createTestApp();
      try {
        const plain = await off.http.get('/scim/v2/Widgets').set('Authorization', bearer);
        expect([plain.status, plain.body]).toEqual([404, { error: 'Cannot GET /scim/v2/Widgets' }]);
      } finally {
        await off.close();
      }
    });
  });
});
