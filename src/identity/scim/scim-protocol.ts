import type SCIMMY from 'scimmy';
import { scimmy } from './scimmy.js';

/*
 * What SCIM's resources share: SCIMMY set up to serve what Trove keeps, errors, list parameters,
 * SearchRequest messages and list answers.
 */

/** Resources returned when a list asks for no `count`, and the most a list returns. */
export const SCIM_DEFAULT_COUNT = 100;
export const SCIM_MAX_RESULTS = 200;

/** The most characters a kept text (a name, an id) may have (its column is varchar(255)). */
export const SCIM_TEXT_MAX_LENGTH = 255;
const SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

export type ScimQuery = Record<string, unknown>;
/** The query parameters SCIMMY's resources take. */
export type ResourceParams = ConstructorParameters<typeof SCIMMY.Resources.User>[1];
export type ScimResource = Record<string, unknown>;

/** A SCIM list answer (RFC 7644 3.4.2). */
export interface ScimListResponse {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: ScimResource[];
}

/** A SCIM error (RFC 7644 §3.12) with its status and, where one applies, its `scimType`. */
export const scimError = (status: number, scimType: string | null, detail: string): Error =>
  // SCIMMY takes null for an error without a SCIM error keyword; its types say string.
  new (scimmy().Types.Error)(status, scimType as string, detail);

/** A resource no one can see: 404. */
export const notFound = (id: string): Error => scimError(404, null, `Resource ${id} not found`);

/** SCIMMY's protocol objects are set up once per process (they are module-wide). */
let scimmyConfigured = false;
export function configureScimmy(library: typeof SCIMMY): void {
  if (scimmyConfigured) return;
  scimmyConfigured = true;
  if (!library.Resources.declared('User')) library.Resources.declare(library.Resources.User);
  if (!library.Resources.declared('Group')) library.Resources.declare(library.Resources.Group);
  describeWhatIsKept(library);
  library.Config.set({
    documentationUri: 'https://github.com/sysadminsmedia/homebox',
    patch: true,
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    sort: false,
    bulk: false,
    changePassword: false,
    etag: false,
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The token set as TROVE_SCIM_TOKEN, sent as `Authorization: Bearer <token>`',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
      },
    ],
  });
}

/**
 * The User attributes of RFC 7643 §4.1 that Trove does not keep: left out of the schema it serves,
 * so that a client trusting `/Schemas` expects none of them, and accepted and ignored when sent
 * (RFC 7644 §3.3), as are extensions such as the enterprise User.
 */
const USER_ATTRIBUTES_NOT_KEPT = [
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'password',
  'phoneNumbers',
  'ims',
  'photos',
  'addresses',
  'groups',
  'entitlements',
  'roles',
  'x509Certificates',
  'name.honorificPrefix',
  'name.honorificSuffix',
  'emails.display',
];

/**
 * Serves the User schema as Trove keeps it: the attributes above left out, `emails` (with its
 * `value`) required, the rule a create or replace is held to (Trove needs an e-mail address), and
 * an address's `type` free.
 */
function describeWhatIsKept(library: typeof SCIMMY): void {
  const user = library.Schemas.User.definition;
  user.truncate(...USER_ATTRIBUTES_NOT_KEPT);
  for (const name of ['emails', 'emails.value']) {
    (user.attribute(name).config as { required: boolean }).required = true;
  }
  // Trove keeps no address's type (it answers "work"): any is accepted, "Work" as Entra sends it.
  (user.attribute('emails.type').config as { canonicalValues?: unknown }).canonicalValues = false;
  // A member's type is read without regard to case ("user" as some clients send it).
  const group = library.Schemas.Group.definition;
  (group.attribute('members.type').config as { canonicalValues?: unknown }).canonicalValues = false;
}

/** SCIMMY reports a resource that fails its schema with a TypeError: a 400 for the client. */
export function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TypeError) throw scimError(400, 'invalidValue', error.message);
    throw error;
  }
}

/** Query parameters as SCIMMY takes them: `startIndex` and `count` as integers. */
export function listParams(query: ScimQuery): ResourceParams {
  const params: ScimQuery = {};
  for (const name of ['filter', 'attributes', 'excludedAttributes', 'sortBy', 'sortOrder']) {
    if (query[name] !== undefined) params[name] = query[name];
  }
  for (const name of ['startIndex', 'count']) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) {
      throw scimError(400, 'invalidValue', `${name} must be an integer`);
    }
    params[name] = Number(value);
  }
  // Of the right types or refused by SCIMMY's resource with a SCIM error.
  return params;
}

/**
 * The query a SearchRequest message (RFC 7644 §3.4.3) asks: `attributes` and `excludedAttributes`
 * as arrays (or text), `startIndex` and `count` as integers; a list takes it as its query.
 */
export function searchQuery(body: unknown): ScimQuery {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw scimError(400, 'invalidSyntax', 'SearchRequest expected a JSON object body');
  }
  const message = body as ScimResource;
  const schemas = message.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(SEARCH_REQUEST_SCHEMA)) {
    throw scimError(400, 'invalidSyntax', `a SearchRequest names ${SEARCH_REQUEST_SCHEMA}`);
  }
  const query: ScimQuery = {};
  for (const [name, value] of Object.entries(message)) {
    if (name === 'schemas' || value === undefined || value === null) continue;
    if (name === 'attributes' || name === 'excludedAttributes') {
      const names = Array.isArray(value) ? value : [value];
      if (!names.every((each) => typeof each === 'string')) {
        throw scimError(400, 'invalidValue', `${name} must be a list of attribute names`);
      }
      query[name] = names.join(',');
    } else {
      query[name] = typeof value === 'number' ? String(value) : value;
    }
  }
  return query;
}

/**
 * A discovery list (ResourceTypes, Schemas) whose `itemsPerPage` counts the resources it holds
 * (SCIMMY reports its default page size there).
 */
export function counted(list: unknown): unknown {
  const plain = JSON.parse(JSON.stringify(list)) as ScimResource;
  return Array.isArray(plain.Resources)
    ? { ...plain, itemsPerPage: plain.Resources.length }
    : plain;
}

/** Attributes a client may send back as it read them, which only the server sets. */
const SET_BY_THE_SERVER = new Set(['id', 'meta', 'schemas']);

/**
 * A PatchOp message with only the operations on attributes Trove keeps (RFC 7644 §3.3: what the
 * server does not keep is ignored, never refused): an operation whose path names an attribute the
 * schema `definition` does not serve (a password, a phone number, the enterprise extension) is
 * left out, as are such attributes in a value without a path, and those only the server sets (the
 * `id` Okta sends back in a rename). A path may name the core schema's URN.
 */
export function withKeptAttributesOnly(
  message: ScimResource,
  definition: SCIMMY.Types.SchemaDefinition,
): ScimResource {
  const operations = message.Operations;
  if (!Array.isArray(operations)) return message;
  const urn = `${definition.id.toLowerCase()}:`;
  const kept = (path: string): string | undefined => {
    let name = path.trim();
    if (name.toLowerCase().startsWith(urn)) name = name.slice(urn.length);
    else if (/^urn:/i.test(name)) return undefined;
    const attribute = name.replace(/\[[^\]]*\]/g, '');
    if (SET_BY_THE_SERVER.has(attribute.split('.')[0].toLowerCase())) return undefined;
    try {
      definition.attribute(attribute);
      return name;
    } catch {
      return undefined;
    }
  };
  return {
    ...message,
    Operations: operations.flatMap((operation: unknown) => {
      if (operation === null || typeof operation !== 'object') return [operation];
      const { path, value } = operation as { path?: unknown; value?: unknown };
      if (typeof path === 'string') {
        const name = kept(path);
        return name === undefined ? [] : [{ ...operation, path: name }];
      }
      if (path !== undefined || value === null || typeof value !== 'object') return [operation];
      if (Array.isArray(value)) return [operation];
      const entries = Object.entries(value).flatMap(([key, each]) => {
        const name = kept(key);
        return name === undefined ? [] : [[name, each] as const];
      });
      return entries.length === 0 ? [] : [{ ...operation, value: Object.fromEntries(entries) }];
    }),
  };
}

/** Whether a PatchOp message still has operations to apply (all may have been ignored). */
export const hasOperations = (message: ScimResource): boolean =>
  !Array.isArray(message.Operations) || message.Operations.length > 0;

/**
 * A resource whose core attributes are sent under the core schema's URN (RFC 7644 §3.10 lets a
 * client name them fully qualified, `{"urn:…:core:2.0:User": {"userName": …}}`), with those
 * attributes at the top level, where they are read; top-level ones win.
 */
export function withCoreAttributesAtTop(
  resource: ScimResource,
  coreSchemaId: string,
): ScimResource {
  const key = Object.keys(resource).find(
    (name) => name.toLowerCase() === coreSchemaId.toLowerCase(),
  );
  const nested = key === undefined ? undefined : resource[key];
  if (nested === null || typeof nested !== 'object' || Array.isArray(nested)) return resource;
  const { [key as string]: _core, ...rest } = resource;
  return { ...(nested as ScimResource), ...rest };
}
