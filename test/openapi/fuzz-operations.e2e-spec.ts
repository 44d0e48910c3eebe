import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/factories.js';
import {
  errorShapeProblem,
  operationsOf,
  PDF_MINIMAL,
  SchemaFuzzer,
  type FuzzRequest,
  type KnownIds,
  type OpenApiDocument,
  type Operation,
} from '../support/openapi-fuzz.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Fixed, so a failure replays; FUZZ_SEED picks another run. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Time for all operations together; FUZZ_TIME_MS runs longer locally. */
const BUDGET_MS = Number(process.env.FUZZ_TIME_MS ?? 30_000);
/** Time for each operation that can end the session (see FRAGILE), and its runs. */
const FRAGILE_MS = 800;
const FRAGILE_RUNS = Math.max(3, Math.round(BUDGET_MS / 10_000));

/**
 * Operations that can end the fuzzer's session or take its group away (logout, refresh,
 * password and account changes, deleting the group or a member, joining a group). After each
 * of them the fuzzer checks its credentials and group, and signs in or starts over.
 */
const FRAGILE = new Set([
  'POST /api/v1/users/logout',
  'POST /api/v1/users/logout/all',
  'GET /api/v1/users/refresh',
  'PUT /api/v1/users/self',
  'DELETE /api/v1/users/self',
  'PUT /api/v1/users/change-password',
  'PUT /api/v1/users/self/change-password',
  'DELETE /api/v1/groups',
  'PUT /api/v1/groups',
  'PUT /api/v1/groups/members/{user_id}',
  'DELETE /api/v1/groups/members/{user_id}',
  'POST /api/v1/groups/invitations/{token}',
]);

/** Reads first, then writes, then deletes, then what can end the session. */
const order = (operation: Operation): number => {
  if (FRAGILE.has(`${operation.method} ${operation.path}`)) return 3;
  if (operation.method === 'DELETE') return 2;
  return operation.method === 'GET' ? 0 : 1;
};

/** A parsed JSON response body, read the way supertest's `body` is. */
type Json = ReturnType<typeof JSON.parse>;

interface Answer {
  status: number;
  body: Json;
}

interface Owner {
  email: string;
  password: string;
  authorization: string;
  groupId: string;
  ids: KnownIds;
}

describe('fuzzing every operation of the served OpenAPI document', () => {
  let trove: TestApp;
  let owner: Owner;
  let sent = 0;
  let serverErrors = 0;
  let resets = 0;
  /** Answers by status of the operation being fuzzed, for FUZZ_VERBOSE. */
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    trove = await createTestApp({
      // The fuzzer signs in wrongly on purpose thousands of times and must still sign itself in.
      TROVE_AUTH_RATE_LIMIT_ENABLED: 'false',
      // Printing labels runs a harmless command rather than none.
      TROVE_LABEL_MAKER_PRINT_COMMAND: 'true {{.FileName}}',
    });
    owner = await seedOwner();
  });
  afterAll(async () => {
    await trove.close();
  });

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    authorization = owner?.authorization,
    tenant = owner?.groupId,
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (authorization) headers.Authorization = authorization;
    if (tenant) headers['X-Tenant'] = tenant;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${trove.baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    let parsed: Json = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed };
  };

  const expectStatus = async (request: Promise<Answer>, status: number): Promise<Json> => {
    const response = await request;
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    return response.body;
  };

  /** Registers and signs in a new owner through the API, and gives the group a bit of everything. */
  async function seedOwner(): Promise<Owner> {
    const email = uniqueEmail('fuzz');
    const password = 'correct horse battery';
    await expectStatus(
      call('POST', '/api/v1/users/register', { name: 'Fuzz', email, password }, '', ''),
      204,
    );
    const login = await expectStatus(
      call('POST', '/api/v1/users/login', { username: email, password }, '', ''),
      200,
    );
    const authorization = login.token as string;
    const self = await expectStatus(
      call('GET', '/api/v1/users/self', undefined, authorization, ''),
      200,
    );
    const groupId = self.item.defaultGroupId as string;
    const seeded: Owner = {
      email,
      password,
      authorization,
      groupId,
      ids: {
        entities: [],
        locations: [],
        tags: [],
        entityTypes: [],
        templates: [],
        maintenance: [],
        attachments: [],
        invitations: [],
        invitationTokens: [],
        apiKeys: [],
        users: [self.item.id],
        groups: [groupId],
        assetIds: [],
      },
    };
    owner = seeded;
    const { ids } = seeded;
    const tag = await expectStatus(call('POST', '/api/v1/tags', { name: 'Fuzzed' }), 201);
    const child = await expectStatus(
      call('POST', '/api/v1/tags', { name: 'Fuzzed child', parentId: tag.id }),
      201,
    );
    ids.tags.push(tag.id, child.id);
    const type = await expectStatus(
      call('POST', '/api/v1/entity-types', { name: 'Gadget', isLocation: false }),
      201,
    );
    const types = await expectStatus(call('GET', '/api/v1/entity-types'), 200);
    ids.entityTypes.push(type.id, ...types.map((each: { id: string }) => each.id));
    const locations = await trove.query<{ id: string }>(
      'SELECT id FROM entities WHERE group_id = $1',
      [groupId],
    );
    ids.locations.push(...locations.map((row) => row.id));
    for (const name of ['Drill', 'Saw', 'Ladder']) {
      const entity = await expectStatus(
        call('POST', '/api/v1/entities', {
          name,
          parentId: ids.locations[0],
          tagIds: [tag.id],
          entityTypeId: type.id,
        }),
        201,
      );
      ids.entities.push(entity.id);
      ids.assetIds.push(entity.assetId);
    }
    ids.entities.push(...ids.locations.slice(0, 2));
    const template = await expectStatus(
      call('POST', '/api/v1/templates', { name: 'Power tool', description: 'fuzz' }),
      201,
    );
    ids.templates.push(template.id);
    const entry = await expectStatus(
      call('POST', `/api/v1/entities/${ids.entities[0]}/maintenance`, {
        name: 'Oil',
        completedDate: '2024-01-02',
        cost: '1.50',
      }),
      201,
    );
    ids.maintenance.push(entry.id);
    const form = new FormData();
    form.append('file', new Blob([PDF_MINIMAL]), 'manual.pdf');
    form.append('name', 'manual.pdf');
    const withAttachment = await expectStatus(
      call('POST', `/api/v1/entities/${ids.entities[0]}/attachments`, form),
      201,
    );
    ids.attachments.push(...withAttachment.attachments.map((each: { id: string }) => each.id));
    const invitation = await expectStatus(
      call('POST', '/api/v1/groups/invitations', { uses: 5 }),
      200,
    );
    ids.invitations.push(invitation.id);
    ids.invitationTokens.push(invitation.token);
    const key = await expectStatus(
      call('POST', '/api/v1/users/self/api-keys', { name: 'fuzz' }),
      201,
    );
    ids.apiKeys.push(key.id);
    return seeded;
  }

  /** Keeps the fuzzer signed in as the owner of its group: signs in again, or starts over. */
  async function ensureOwner(): Promise<void> {
    const self = await call('GET', '/api/v1/users/self');
    if (self.status !== 200) {
      const login = await call(
        'POST',
        '/api/v1/users/login',
        { username: owner.email, password: owner.password },
        '',
        '',
      );
      if (login.status !== 200) {
        resets += 1;
        owner = await seedOwner();
        return;
      }
      owner.authorization = login.body.token as string;
    } else {
      // Changing the e-mail address is one of the things the fuzzer may do successfully.
      owner.email = self.body.item.email as string;
    }
    const group = await call('GET', '/api/v1/groups');
    const members = await call('GET', '/api/v1/groups/members');
    const isOwner =
      Array.isArray(members.body) &&
      members.body.some(
        (member: { id?: string; role?: string }) =>
          member.id === owner.ids.users[0] && member.role === 'owner',
      );
    if (group.status !== 200 || group.body.id !== owner.groupId || !isOwner) {
      resets += 1;
      owner = await seedOwner();
    }
  }

  /** Sends one fuzzed request; what is wrong with the answer, or undefined. */
  async function send(request: FuzzRequest): Promise<string | undefined> {
    const headers: Record<string, string> = { Authorization: owner.authorization };
    const tenant = request.tenant ?? owner.groupId;
    if (tenant !== '') headers['X-Tenant'] = tenant;
    const hasBody = request.method !== 'GET' && request.body !== undefined;
    if (hasBody && request.contentType) headers['Content-Type'] = request.contentType;
    sent += 1;
    let status: number;
    let contentType: string | null;
    let text: string;
    try {
      const response = await fetch(`${trove.baseUrl}${request.url}`, {
        method: request.method,
        headers,
        body: hasBody ? request.body : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(20_000),
      });
      status = response.status;
      contentType = response.headers.get('content-type');
      text = await response.text();
    } catch (error) {
      return `no answer: ${(error as Error).message}`;
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 500) {
      serverErrors += 1;
      return `answered ${status}: ${text.slice(0, 300)}`;
    }
    if (status >= 400) {
      const problem = errorShapeProblem(contentType, text);
      if (problem)
        return `answered ${status} without the error shape (${problem}): ${text.slice(0, 300)}`;
    }
    return undefined;
  }

  it(
    'answers every hostile request with a documented 4xx or a success, never a 5xx',
    async () => {
      const served = await fetch(`${trove.baseUrl}/swagger/openapi.json`);
      expect(served.status).toBe(200);
      const document = (await served.json()) as OpenApiDocument;
      const operations = operationsOf(document).sort((a, b) => order(a) - order(b));
      expect(operations.length).toBeGreaterThan(70);
      const deadline = Date.now() + BUDGET_MS;
      let runs = 0;
      let runMs = 0;
      const failures: string[] = [];
      for (const [index, operation] of operations.entries()) {
        // FUZZ_ONLY=<text> replays only the operations whose "METHOD /path" contains it.
        if (
          process.env.FUZZ_ONLY &&
          !`${operation.method} ${operation.path}`.includes(process.env.FUZZ_ONLY)
        ) {
          continue;
        }
        const fuzzer = new SchemaFuzzer(document, () => owner.ids);
        const fragile = FRAGILE.has(`${operation.method} ${operation.path}`);
        const seed = SEED + index;
        // Fragile operations may start over (register and seed a new owner) on every run, so
        // each gets a fixed time for a few runs; the others share the rest of the budget.
        const left = operations.slice(index);
        const fragileLeft = left.filter((each) => FRAGILE.has(`${each.method} ${each.path}`));
        const share =
          (deadline - Date.now() - fragileLeft.length * FRAGILE_MS) /
          Math.max(left.length - fragileLeft.length, 1);
        const perOperationMs = fragile ? FRAGILE_MS : Math.max(Math.floor(share), 150);
        // As many runs as fit at the pace so far; the time limit is only a backstop, since
        // fast-check counts an operation interrupted before its first run as failed.
        const pace = runs > 0 ? runMs / runs : 25;
        const numRuns = fragile
          ? FRAGILE_RUNS
          : Math.min(Math.max(Math.floor(perOperationMs / pace), 3), 400);
        const started = Date.now();
        let operationRuns = 0;
        statuses.clear();
        try {
          await fc.assert(
            fc.asyncProperty(fuzzer.request(operation), async (request) => {
              operationRuns += 1;
              const problem = await send(request);
              if (fragile) await ensureOwner();
              if (problem) throw new Error(`${request.description}: ${problem}`);
            }),
            {
              seed,
              numRuns,
              interruptAfterTimeLimit: Math.max(perOperationMs * 4, 5_000),
              markInterruptAsFailure: false,
              endOnFailure: true,
            },
          );
          if (!fragile) {
            runMs += Date.now() - started;
            runs += operationRuns;
          }
        } catch (error) {
          // fast-check's report without the counterexample's raw form (which can be 100 kB);
          // the thrown message describes the request.
          const report = (error as Error).message
            .split('\n')
            .filter((line) => line.trim() !== '' && !line.startsWith('Counterexample'))
            .map((line) => line.slice(0, 800))
            .join('\n');
          const cause = (error as Error).cause;
          const problem = cause instanceof Error ? `\n${cause.message.slice(0, 800)}` : '';
          failures.push(
            `${operation.method} ${operation.path} (FUZZ_SEED=${SEED}, operation seed ${seed}):` +
              `${problem}\n${report}`,
          );
        }
        // Whatever the operation did, the next one starts as the owner of a seeded group.
        await ensureOwner();
        if (process.env.FUZZ_VERBOSE) {
          console.log(`${operation.method} ${operation.path}`, Object.fromEntries(statuses));
        }
      }
      await ensureOwner();
      console.log(
        `fuzz: ${sent} requests over ${operations.length} operations, ${serverErrors} answered 5xx ` +
          `(seed ${SEED}, ${resets} fresh owners)`,
      );
      if (failures.length) console.log(failures.join('\n\n'));
      expect(failures).toEqual([]);
      expect(serverErrors).toBe(0);
      // Still healthy, and an ordinary request works.
      await expectStatus(call('GET', '/api/v1/health/ready', undefined, ''), 200);
      const created = await expectStatus(call('POST', '/api/v1/entities', { name: 'After' }), 201);
      await expectStatus(call('GET', `/api/v1/entities/${created.id}`), 200);
    },
    BUDGET_MS + 90_000,
  );
});
