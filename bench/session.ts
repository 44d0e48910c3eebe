/** The benchmark's user, signed in over HTTP like any client. */
export interface BenchSession {
  /** `Bearer <token>`, as the login returned it. */
  authorization: string;
  groupId: string;
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  expected: number,
  options: { body?: unknown; authorization?: string } = {},
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.authorization ? { Authorization: options.authorization } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`${method} ${path}: expected ${expected}, got ${response.status}: ${text}`);
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Registers a user (who gets a group of their own), signs in and reads the group id. */
export async function signUp(baseUrl: string): Promise<BenchSession> {
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password 1234';
  await call(baseUrl, 'POST', '/api/v1/users/register', 204, {
    body: { name: 'Bench User', email, password },
  });
  const login = (await call(baseUrl, 'POST', '/api/v1/users/login', 200, {
    body: { username: email, password },
  })) as { token: string };
  const authorization = login.token.startsWith('Bearer ') ? login.token : `Bearer ${login.token}`;
  const self = (await call(baseUrl, 'GET', '/api/v1/users/self', 200, { authorization })) as {
    item: { defaultGroupId: string };
  };
  return { authorization, groupId: self.item.defaultGroupId };
}

/** GET with the session, expecting 200 (used to check the raw SQL against the app). */
export function getJson<T>(baseUrl: string, session: BenchSession, path: string): Promise<T> {
  return call(baseUrl, 'GET', path, 200, { authorization: session.authorization }) as Promise<T>;
}

/** Creates an item at the top of the group's tree; answers its id. */
export async function createEntity(
  baseUrl: string,
  session: BenchSession,
  name: string,
): Promise<string> {
  const created = (await call(baseUrl, 'POST', '/api/v1/entities', 201, {
    authorization: session.authorization,
    body: { name },
  })) as { id: string };
  return created.id;
}

/** Uploads a file as an attachment of the entity, expecting 201. */
export async function uploadFile(
  baseUrl: string,
  session: BenchSession,
  entityId: string,
  name: string,
  content: Buffer,
): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/octet-stream' }), name);
  form.append('name', name);
  const response = await fetch(`${baseUrl}/api/v1/entities/${entityId}/attachments`, {
    method: 'POST',
    headers: { Authorization: session.authorization },
    body: form,
  });
  if (response.status !== 201) {
    throw new Error(
      `upload ${name}: expected 201, got ${response.status}: ${await response.text()}`,
    );
  }
}
