import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
export { UNKNOWN_ID, as } from '../support/api.js';
export {
  BAD_TOKEN,
  expectUnauthenticated,
  FORGED_TOKEN,
  NO_TOKEN,
  OWNER_ONLY,
} from '../support/auth-expectations.js';

export const NO_ACCESS = { error: 'user does not have access to the requested tenant' };
export const BAD_TENANT = { error: 'invalid X-Tenant header format' };
export const NO_GROUP = { error: 'you are not a member of any group' };

/** A well-formed id that belongs to nothing. */

export const GROUP_KEYS = ['createdAt', 'currency', 'id', 'name', 'updatedAt'];

export interface GroupBody {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  currency: string;
}

export interface MemberBody {
  id: string;
  name: string;
  email: string;
  role: 'owner' | 'user' | 'viewer';
  disabled: boolean;
}

export interface InvitationBody {
  id: string;
  expiresAt: string;
  uses: number;
  role: 'user' | 'viewer';
  group: GroupBody;
}

/** What a group looks like on the wire: ids and times are strings. */
export const groupShape = (
  id: string,
  name: string,
  currency = 'USD',
): Record<string, unknown> => ({
  id,
  name,
  currency,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
});

export const memberShape = (session: Session, role: MemberBody['role']): MemberBody => ({
  id: session.id,
  name: session.name,
  email: session.email,
  role,
  disabled: false,
});

export async function readGroup(
  trove: TestApp,
  session: Session,
  tenant?: string,
): Promise<GroupBody> {
  const response = await as(trove, session, 'get', '/api/v1/groups', tenant).expect(200);
  return response.body as GroupBody;
}

export async function readMembers(
  trove: TestApp,
  session: Session,
  tenant?: string,
): Promise<MemberBody[]> {
  const response = await as(trove, session, 'get', '/api/v1/groups/members', tenant).expect(200);
  return response.body as MemberBody[];
}

export async function readAllGroups(trove: TestApp, session: Session): Promise<GroupBody[]> {
  const response = await as(trove, session, 'get', '/api/v1/groups/all').expect(200);
  return response.body as GroupBody[];
}

export async function readInvitations(
  trove: TestApp,
  session: Session,
  tenant?: string,
): Promise<InvitationBody[]> {
  const response = await as(trove, session, 'get', '/api/v1/groups/invitations', tenant).expect(
    200,
  );
  return response.body as InvitationBody[];
}

export async function readDefaultGroupId(trove: TestApp, session: Session): Promise<string | null> {
  const response = await as(trove, session, 'get', '/api/v1/users/self').expect(200);
  return (response.body as { item: { defaultGroupId: string | null } }).item.defaultGroupId;
}

/** Creates an invitation to the owner's (or `tenant`'s) group and returns its token and id. */
export async function invite(
  trove: TestApp,
  owner: Session,
  body: { uses: number; role?: 'user' | 'viewer'; expiresAt?: string } = { uses: 1 },
  tenant?: string,
): Promise<{ id: string; token: string; expiresAt: string; uses: number }> {
  const response = await as(trove, owner, 'post', '/api/v1/groups/invitations', tenant)
    .send(body)
    .expect(200);
  return response.body as { id: string; token: string; expiresAt: string; uses: number };
}

/** Creates another group owned by `session` and returns it. */
export async function createGroup(
  trove: TestApp,
  session: Session,
  name: string,
): Promise<GroupBody> {
  const response = await as(trove, session, 'post', '/api/v1/groups').send({ name }).expect(201);
  return response.body as GroupBody;
}
