import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
export { UNKNOWN_ID, as } from '../support/api.js';
export {
  BAD_TOKEN,
  FORGED_TOKEN,
  NO_TOKEN,
  VIEWER_ONLY_READS,
  expectUnauthenticated,
} from '../support/auth-expectations.js';

export const CYCLE = {
  error: 'Validation Error',
  fields: { parentId: 'a tag cannot be nested under itself or its descendants' },
};
export const TOO_DEEP = {
  error: 'Validation Error',
  fields: { parentId: 'tags can be nested at most 5 levels deep' },
};

/** A well-formed id that belongs to nothing. */
/** The tags every new group starts with, in list order. */
export const STARTER_TAGS = ['Appliances', 'Electronics', 'General', 'Important', 'IOT', 'Servers'];

export const SUMMARY_KEYS = [
  'color',
  'createdAt',
  'description',
  'icon',
  'id',
  'name',
  'parentId',
  'updatedAt',
];
export const OUT_KEYS = [...SUMMARY_KEYS, 'children', 'parent'].sort();

export interface TagSummaryBody {
  id: string;
  name: string;
  description: string;
  color: string;
  icon: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TagOutBody extends TagSummaryBody {
  parent: TagSummaryBody | null;
  children: TagSummaryBody[];
}

/** What a tag summary looks like on the wire; ids and times not given are any string. */
export const summaryShape = (fields: Partial<TagSummaryBody> & { name: string }) => ({
  id: expect.any(String),
  description: '',
  color: '',
  icon: '',
  parentId: null,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  ...fields,
});

/** The summary a full tag body contains. */
export const summaryOf = (tag: TagSummaryBody): TagSummaryBody => ({
  id: tag.id,
  name: tag.name,
  description: tag.description,
  color: tag.color,
  icon: tag.icon,
  parentId: tag.parentId,
  createdAt: tag.createdAt,
  updatedAt: tag.updatedAt,
});

export async function listTags(trove: TestApp, session: Session): Promise<TagSummaryBody[]> {
  const response = await as(trove, session, 'get', '/api/v1/tags').expect(200);
  return response.body as TagSummaryBody[];
}

export async function readTag(trove: TestApp, session: Session, id: string): Promise<TagOutBody> {
  const response = await as(trove, session, 'get', `/api/v1/tags/${id}`).expect(200);
  return response.body as TagOutBody;
}

export async function createTag(
  trove: TestApp,
  session: Session,
  body: {
    name: string;
    parentId?: string | null;
    description?: string;
    color?: string;
    icon?: string;
  },
): Promise<TagOutBody> {
  const response = await as(trove, session, 'post', '/api/v1/tags').send(body).expect(201);
  return response.body as TagOutBody;
}

/** Creates a chain of nested tags, each under the one before; returns them root first. */
export async function createChain(
  trove: TestApp,
  session: Session,
  names: string[],
  parentId: string | null = null,
): Promise<TagOutBody[]> {
  const chain: TagOutBody[] = [];
  for (const name of names) {
    const tag = await createTag(trove, session, { name, parentId: chain.at(-1)?.id ?? parentId });
    chain.push(tag);
  }
  return chain;
}

/** Every stored tag row of a group (what nothing-written checks compare). */
export const storedTags = (trove: TestApp, groupId: string) =>
  trove.query(
    'SELECT id, parent_id, name, description, color, icon, created_at, updated_at FROM tags WHERE group_id = $1 ORDER BY id',
    [groupId],
  );
