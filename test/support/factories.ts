import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export interface Session {
  /** The user's id. */
  id: string;
  email: string;
  password: string;
  name: string;
  /** The raw session token. */
  token: string;
  /** `Bearer <token>`, ready for the Authorization header. */
  authorization: string;
  attachmentToken: string;
  /** The user's default group. */
  groupId: string;
}

export const uniqueEmail = (prefix = 'user'): string =>
  `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

/** Signs in through the API and returns the session. */
export async function signIn(
  trove: Pick<TestApp, 'http'>,
  email: string,
  password: string,
): Promise<Omit<Session, 'groupId' | 'id' | 'name'>> {
  const response = await trove.http
    .post('/api/v1/users/login')
    .send({ username: email, password })
    .expect(200);
  const body = response.body as { token: string; attachmentToken: string };
  const token = body.token.replace(/^Bearer /, '');
  return {
    email,
    password,
    token,
    authorization: `Bearer ${token}`,
    attachmentToken: body.attachmentToken,
  };
}

/** Registers a new user (with their own group, or through an invitation) and signs them in. */
export async function signUp(
  trove: Pick<TestApp, 'http'>,
  options: { name?: string; email?: string; password?: string; invitation?: string } = {},
): Promise<Session> {
  const name = options.name ?? 'Test User';
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  await trove.http
    .post('/api/v1/users/register')
    .send({ name, email, password, ...(options.invitation ? { token: options.invitation } : {}) })
    .expect(204);
  const session = await signIn(trove, email, password);
  const self = await trove.http
    .get('/api/v1/users/self')
    .set('Authorization', session.authorization)
    .expect(200);
  const user = (self.body as { item: { id: string; defaultGroupId: string } }).item;
  expect(user.defaultGroupId).toEqual(expect.any(String));
  return { ...session, id: user.id, name, groupId: user.defaultGroupId };
}

/** Creates an invitation to the owner's group and registers a new member with it. */
export async function signUpMember(
  trove: TestApp,
  owner: Session,
  role: 'user' | 'viewer' = 'user',
): Promise<Session> {
  const invitation = await trove.http
    .post('/api/v1/groups/invitations')
    .set('Authorization', owner.authorization)
    .send({ uses: 1, role })
    .expect(200);
  const member = await signUp(trove, { invitation: (invitation.body as { token: string }).token });
  expect(member.groupId).toBe(owner.groupId);
  return member;
}
