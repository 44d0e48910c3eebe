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

export const TEMPLATES = '/api/v1/templates';

/** A well-formed id that belongs to nothing. */
/** Homebox's "not set". */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export const LIST_ITEM_KEYS = ['createdAt', 'description', 'id', 'name', 'updatedAt'];
export const SUMMARY_KEYS = [
  'createdAt',
  'defaultDescription',
  'defaultInsured',
  'defaultLifetimeWarranty',
  'defaultLocation',
  'defaultManufacturer',
  'defaultModelNumber',
  'defaultName',
  'defaultQuantity',
  'defaultTags',
  'defaultWarrantyDetails',
  'description',
  'fields',
  'id',
  'includePurchaseFields',
  'includeSoldFields',
  'includeWarrantyFields',
  'name',
  'notes',
  'updatedAt',
];
export const FIELD_KEYS = [
  'booleanValue',
  'id',
  'name',
  'numberValue',
  'textValue',
  'timeValue',
  'type',
];

export interface Reference {
  id: string;
  name: string;
}

export interface TemplateFieldBody {
  id: string;
  type: 'text' | 'number' | 'boolean' | 'time';
  name: string;
  textValue: string;
  numberValue: number;
  booleanValue: boolean;
  timeValue: string;
}

export interface TemplateBody {
  id: string;
  name: string;
  description: string;
  notes: string;
  createdAt: string;
  updatedAt: string;
  defaultName: string;
  defaultDescription: string;
  defaultManufacturer: string;
  defaultModelNumber: string;
  defaultQuantity: number;
  defaultInsured: boolean;
  defaultLifetimeWarranty: boolean;
  defaultWarrantyDetails: string;
  defaultLocation: Reference | null;
  defaultTags: Reference[];
  includePurchaseFields: boolean;
  includeSoldFields: boolean;
  includeWarrantyFields: boolean;
  fields: TemplateFieldBody[];
}

export interface TemplateListItemBody {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

/** What a template summary looks like on the wire; what is not given takes its default. */
export const templateShape = (fields: Partial<TemplateBody> & { name: string }): TemplateBody => ({
  id: expect.any(String),
  description: '',
  notes: '',
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  defaultName: '',
  defaultDescription: '',
  defaultManufacturer: '',
  defaultModelNumber: '',
  defaultQuantity: 1,
  defaultInsured: false,
  defaultLifetimeWarranty: false,
  defaultWarrantyDetails: '',
  defaultLocation: null,
  defaultTags: [],
  includePurchaseFields: false,
  includeSoldFields: false,
  includeWarrantyFields: false,
  fields: [],
  ...fields,
});

/** What a template field looks like on the wire; values not given take their defaults. */
export const fieldShape = (
  fields: Partial<TemplateFieldBody> & Pick<TemplateFieldBody, 'type' | 'name'>,
): TemplateFieldBody => ({
  id: expect.any(String),
  textValue: '',
  numberValue: 0,
  booleanValue: false,
  timeValue: '',
  ...fields,
});

/** The list item a full template contains. */
export const listItemOf = (template: TemplateBody): TemplateListItemBody => ({
  id: template.id,
  name: template.name,
  description: template.description,
  createdAt: template.createdAt,
  updatedAt: template.updatedAt,
});

export const validationError = (fields: Record<string, string>) => ({
  error: 'Validation Error',
  fields,
});

export async function createTemplate(
  trove: TestApp,
  session: Session,
  body: Record<string, unknown> & { name: string },
): Promise<TemplateBody> {
  const response = await as(trove, session, 'post', TEMPLATES).send(body).expect(201);
  return response.body as TemplateBody;
}

export async function readTemplate(
  trove: TestApp,
  session: Session,
  id: string,
): Promise<TemplateBody> {
  const response = await as(trove, session, 'get', `${TEMPLATES}/${id}`).expect(200);
  return response.body as TemplateBody;
}

export async function listTemplates(
  trove: TestApp,
  session: Session,
): Promise<TemplateListItemBody[]> {
  const response = await as(trove, session, 'get', TEMPLATES).expect(200);
  return response.body as TemplateListItemBody[];
}

/** Every stored template of a group with its fields (what nothing-written checks compare). */
export const storedTemplates = (trove: TestApp, groupId: string) =>
  trove.query(
    `SELECT t.*, COALESCE((SELECT json_agg(f ORDER BY f.created_at, f.id) FROM template_fields f
                           WHERE f.template_id = t.id), '[]') AS fields
     FROM entity_templates t WHERE t.group_id = $1 ORDER BY t.id`,
    [groupId],
  );

/** Every stored entity of a group with its fields and tags. */
export const storedEntities = (trove: TestApp, groupId: string) =>
  trove.query(
    `SELECT e.*,
       COALESCE((SELECT json_agg(f ORDER BY f.id) FROM entity_fields f WHERE f.entity_id = e.id), '[]') AS fields,
       COALESCE((SELECT json_agg(et.tag_id ORDER BY et.tag_id) FROM entity_tags et WHERE et.entity_id = e.id), '[]') AS tags
     FROM entities e WHERE e.group_id = $1 ORDER BY e.id`,
    [groupId],
  );

/** The group's entities whose type is a location (the starter locations), by name. */
export async function locations(
  trove: TestApp,
  session: Session,
): Promise<Record<string, Reference>> {
  const rows = await trove.query<Reference>(
    `SELECT e.id, e.name FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
     WHERE e.group_id = $1 AND t.is_location ORDER BY e.name`,
    [session.groupId],
  );
  return Object.fromEntries(rows.map((row) => [row.name, { id: row.id, name: row.name }]));
}

export interface TagBody {
  id: string;
  name: string;
  description: string;
  color: string;
  icon: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The group's tags (the starter tags and any made since), by name. */
export async function tags(trove: TestApp, session: Session): Promise<Record<string, TagBody>> {
  const response = await as(trove, session, 'get', '/api/v1/tags').expect(200);
  return Object.fromEntries((response.body as TagBody[]).map((tag) => [tag.name, tag]));
}

export async function createTag(trove: TestApp, session: Session, name: string): Promise<TagBody> {
  const response = await as(trove, session, 'post', '/api/v1/tags').send({ name }).expect(201);
  return response.body as TagBody;
}
