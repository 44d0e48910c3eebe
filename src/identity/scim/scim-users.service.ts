import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { isUUID } from 'class-validator';
import type SCIMMY from 'scimmy';
import type { TroveConfig } from '../../platform/config/configuration.js';
import {
  OUTSIDE_USER_DEFAULT_ROLE,
  OutsideUserRefused,
  OutsideUsersService,
} from '../accounts/outside-users.service.js';
import { GroupsService, oidcSharedGroupKey } from '../groups/groups.service.js';
import { normaliseEmail, UsersService } from '../users/users.service.js';
import { filterToSql, USER_FILTER_COLUMNS } from './scim-filter.js';
import {
  ScimIdentityRepository,
  type ScimNameParts,
  type ScimUserRow,
} from './scim-identity.repository.js';
import {
  hasOperations,
  listParams,
  notFound,
  parsed,
  SCIM_DEFAULT_COUNT,
  SCIM_MAX_RESULTS,
  SCIM_TEXT_MAX_LENGTH,
  type ScimListResponse,
  type ScimQuery,
  type ScimResource,
  scimError,
  searchQuery,
  withCoreAttributesAtTop,
  withKeptAttributesOnly,
} from './scim-protocol.js';
import { scimmy } from './scimmy.js';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** What a create, replace or patch asks Trove to store. */
interface ScimUserInput {
  userName: string;
  email: string;
  name: string;
  nameParts: ScimNameParts;
  /** Absent from a replace or patch: left as it is. */
  active?: boolean;
  externalId?: string | null;
}

/**
 * SCIM 2.0 provisioning of users (RFC 7643/7644) with SCIMMY for the protocol: schemas and their
 * validation, filters, PATCH operations, list and error messages. The users SCIM sees are the
 * members of the shared single sign-on group (TROVE_OIDC_SHARED_GROUP); an id of anyone else is
 * not found. A created user joins that group with the default role and has no password: they
 * sign in through the provider, linked by e-mail at their first sign-in. `active: false`
 * disables the account (every credential ends at once), `active: true` enables it, and a delete
 * deletes it as account deletion does.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly identities: ScimIdentityRepository,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly outsideUsers: OutsideUsersService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get sharedGroupName(): string {
    return this.config.get('oidc', { infer: true }).sharedGroup;
  }

  private async sharedGroupId(): Promise<string | undefined> {
    return this.groups.findOidcShared(oidcSharedGroupKey(this.sharedGroupName));
  }

  /** The users matching `filter`, a page of them (`startIndex` from 1, `count`). */
  async list(query: ScimQuery, base: string): Promise<ScimListResponse> {
    const params = new (scimmy().Resources.User)(undefined, listParams(query));
    const startIndex = params.constraints?.startIndex ?? 1;
    const count = Math.min(params.constraints?.count ?? SCIM_DEFAULT_COUNT, SCIM_MAX_RESULTS);
    const groupId = await this.sharedGroupId();
    const condition = params.filter
      ? filterToSql(params.filter, 2, USER_FILTER_COLUMNS)
      : { sql: 'true', values: [] };
    const page = groupId
      ? await this.identities.findPage(groupId, condition, startIndex - 1, count)
      : { rows: [], total: 0 };
    return {
      schemas: [scimmy().Messages.ListResponse.id],
      totalResults: page.total,
      startIndex,
      itemsPerPage: page.rows.length,
      Resources: page.rows.map((row) => toScimUser(row, base, params.attributes)),
    };
  }

  /**
   * A SearchRequest message (RFC 7644 §3.4.3) run as the list's query: `attributes` and
   * `excludedAttributes` as arrays (or text), `startIndex` and `count` as integers.
   */
  async search(body: unknown, base: string): Promise<ScimListResponse> {
    return this.list(searchQuery(body), base);
  }

  async get(id: string, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.User)(id, listParams(query));
    return toScimUser(await this.findOrFail(id), base, params.attributes);
  }

  async create(body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.User)(undefined, listParams(query));
    const input = readInput(body);
    const id = await this.insert(input);
    return toScimUser(await this.findOrFail(id), base, params.attributes);
  }

  async replace(id: string, body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.User)(id, listParams(query));
    const groupId = await this.sharedGroupId();
    const input = readInput(body);
    await this.update(await this.findOrFail(id, groupId), input, groupId);
    return toScimUser(await this.findOrFail(id, groupId), base, params.attributes);
  }

  /** Applies a PatchOp message to the user as stored, then stores the result as a replace does. */
  async patch(id: string, body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.User)(id, listParams(query));
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw scimError(400, 'invalidSyntax', 'PatchOp request expected a JSON object body');
    }
    const groupId = await this.sharedGroupId();
    const row = await this.findOrFail(id, groupId);
    const operations = withKeptAttributesOnly(
      withBooleanActive(body as ScimResource),
      scimmy().Schemas.User.definition,
    );
    // Every operation was on something Trove does not keep (a password, say): nothing changes.
    if (!hasOperations(operations)) return toScimUser(row, base, params.attributes);
    const current = toScimUser(row, base);
    const message = new (scimmy().Messages.PatchOp)(
      operations as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0],
    );
    const before = readInput(current);
    await message.apply(current as never, async (patched: unknown) => {
      const input = withNameOfChangedParts(before, readInput(patched), current, patched);
      // What the operations leave without an externalId has none: `remove externalId` clears it.
      await this.update(row, { ...input, externalId: input.externalId ?? null }, groupId);
      return patched as never;
    });
    return toScimUser(await this.findOrFail(id, groupId), base, params.attributes);
  }

  async remove(id: string): Promise<void> {
    await this.findOrFail(id);
    await this.users.deleteAccount(id);
  }

  /** The member `id` of the shared group (`groupId`, looked up when not given), else 404. */
  private async findOrFail(id: string, sharedGroupId?: string): Promise<ScimUserRow> {
    if (!isUUID(id)) throw notFound(id);
    const groupId = sharedGroupId ?? (await this.sharedGroupId());
    const row = groupId && (await this.identities.findMember(groupId, id));
    if (!row) throw notFound(id);
    return row;
  }

  /**
   * Creates the user as every outside user comes in (`OutsideUsersService`): in the shared group
   * with the default role (the group is made on first use, as a first sign-in makes it), never
   * taking over an account that holds the e-mail address.
   */
  @Transactional()
  private async insert(input: ScimUserInput): Promise<string> {
    const key = userNameKey(input.userName);
    await this.users.lockForCreation(`trove:scim-user-name:${key}`);
    if (await this.identities.isUserNameTaken(await this.sharedGroupId(), key, null)) {
      throw scimError(409, 'uniqueness', `userName '${input.userName}' is already in use`);
    }
    const user = await this.outsideUsers
      .bringIn({ email: input.email, name: input.name, sharedRole: OUTSIDE_USER_DEFAULT_ROLE })
      .catch((error: unknown) => {
        if (error instanceof OutsideUserRefused) throw scimError(409, 'uniqueness', error.message);
        throw error;
      });
    await this.identities.save(user.id, {
      userName: input.userName,
      userNameKey: key,
      externalId: input.externalId ?? null,
      nameParts: input.nameParts,
    });
    if (input.active === false) await this.users.setDisabled(user.id, true);
    return user.id;
  }

  /**
   * Stores a replace (or a patched resource) of the user `row` of shared group `groupId`: what
   * it omits of `active` and externalId stays.
   */
  @Transactional()
  private async update(row: ScimUserRow, input: ScimUserInput, groupId?: string): Promise<void> {
    const id = row.id;
    const key = userNameKey(input.userName);
    const email = normaliseEmail(input.email);
    const renamed = key !== userNameKey(row.user_name);
    if (renamed && (await this.identities.isUserNameTaken(groupId, key, id))) {
      throw scimError(409, 'uniqueness', `userName '${input.userName}' is already in use`);
    }
    const holder = email === row.email ? null : await this.users.findByEmail(email);
    if (holder && holder.id !== id) {
      throw scimError(409, 'uniqueness', `a user with the e-mail address ${email} already exists`);
    }
    if (input.name !== row.name || email !== row.email) {
      await this.users.updateAccount(id, { name: input.name, email });
    }
    const externalId = input.externalId === undefined ? row.external_id : input.externalId;
    const parts = input.nameParts;
    const partsChanged =
      parts.givenName !== row.given_name ||
      parts.middleName !== row.middle_name ||
      parts.familyName !== row.family_name;
    if (input.userName !== row.user_name || externalId !== row.external_id || partsChanged) {
      await this.identities.save(id, {
        userName: input.userName,
        userNameKey: key,
        externalId,
        nameParts: parts,
      });
    }
    if (input.active !== undefined && input.active === row.disabled) {
      await this.users.setDisabled(id, !input.active);
    }
  }
}

/** SCIM user names compare without regard to case (RFC 7643 `caseExact: false`). */
const userNameKey = (userName: string): string => userName.trim().toLowerCase();

/**
 * Microsoft Entra ID sends `active` as the string "True" or "False" in PATCH operations; SCIM's
 * schema says boolean. Those two strings are read as the booleans they mean.
 */
function withBooleanActive(message: ScimResource): ScimResource {
  const operations = message.Operations;
  if (!Array.isArray(operations)) return message;
  const asBoolean = (value: unknown): unknown =>
    typeof value === 'string' && /^(true|false)$/i.test(value)
      ? value.toLowerCase() === 'true'
      : value;
  return {
    ...message,
    Operations: operations.map((operation: unknown) => {
      if (operation === null || typeof operation !== 'object') return operation;
      const { path, value } = operation as { path?: unknown; value?: unknown };
      if (typeof path === 'string' && path.toLowerCase() === 'active') {
        return { ...operation, value: asBoolean(value) };
      }
      if (path === undefined && value !== null && typeof value === 'object' && 'active' in value) {
        return { ...operation, value: { ...value, active: asBoolean(value.active) } };
      }
      return operation;
    }),
  };
}

/** A part of a name as sent: trimmed, at most 255 characters, null when empty or absent. */
function namePart(value: string | undefined): string | null {
  const part = value?.trim().slice(0, SCIM_TEXT_MAX_LENGTH) ?? '';
  return part === '' ? null : part;
}

/** The parts of a name joined as one ("Ada King Lovelace"), or '' when there are none. */
const joinedName = (parts: ScimNameParts): string =>
  [parts.givenName, parts.middleName, parts.familyName].filter((part) => part !== null).join(' ');

/**
 * What a PATCH stores: when its operations changed a part of the name (a surname, say) and left
 * `displayName` and `name.formatted` as they were, the name becomes the parts joined; otherwise
 * the name is read as any resource's is.
 */
function withNameOfChangedParts(
  before: ScimUserInput,
  after: ScimUserInput,
  current: ScimResource,
  patched: unknown,
): ScimUserInput {
  const shown = (resource: unknown) => {
    const { displayName, name } = resource as {
      displayName?: string;
      name?: { formatted?: string };
    };
    return `${displayName ?? ''}\u0000${name?.formatted ?? ''}`;
  };
  const partsChanged = joinedName(before.nameParts) !== joinedName(after.nameParts);
  const joined = joinedName(after.nameParts);
  return partsChanged && joined !== '' && shown(current) === shown(patched)
    ? { ...after, name: joined.slice(0, SCIM_TEXT_MAX_LENGTH) }
    : after;
}

/** Reads a User resource sent by the client, checked against SCIM's User schema. */
function readInput(body: unknown): ScimUserInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw scimError(400, 'invalidSyntax', 'expected a User resource as a JSON object');
  }
  const resource = parsed(
    () =>
      new (scimmy().Schemas.User)(
        withCoreAttributesAtTop(body as ScimResource, scimmy().Schemas.User.definition.id),
        'in',
      ),
  ) as unknown as {
    userName?: string;
    displayName?: string;
    name?: { formatted?: string; givenName?: string; middleName?: string; familyName?: string };
    emails?: { value?: string; primary?: boolean }[];
    active?: boolean;
    externalId?: string;
  };
  const userName = (resource.userName ?? '').trim();
  if (userName === '' || userName.length > SCIM_TEXT_MAX_LENGTH) {
    throw scimError(
      400,
      'invalidValue',
      `userName must have 1 to ${SCIM_TEXT_MAX_LENGTH} characters`,
    );
  }
  const emails = resource.emails ?? [];
  const email = // The last one marked primary: a PATCH that adds a primary address appends it.
    ((emails.findLast((entry) => entry.primary) ?? emails[0])?.value ?? '').trim();
  if (!EMAIL_SHAPE.test(email) || email.length > SCIM_TEXT_MAX_LENGTH) {
    throw scimError(400, 'invalidValue', 'a user needs an e-mail address in emails');
  }
  const nameParts: ScimNameParts = {
    givenName: namePart(resource.name?.givenName),
    middleName: namePart(resource.name?.middleName),
    familyName: namePart(resource.name?.familyName),
  };
  const name = (
    resource.displayName?.trim() ||
    resource.name?.formatted?.trim() ||
    joinedName(nameParts) ||
    userName
  ).slice(0, SCIM_TEXT_MAX_LENGTH);
  const externalId = resource.externalId?.trim();
  if (externalId !== undefined && externalId.length > SCIM_TEXT_MAX_LENGTH) {
    throw scimError(
      400,
      'invalidValue',
      `externalId has more than ${SCIM_TEXT_MAX_LENGTH} characters`,
    );
  }
  return {
    userName,
    email,
    name,
    nameParts,
    active: resource.active,
    externalId: externalId === '' ? null : externalId,
  };
}

/** A user as a SCIM User resource (only the requested attributes, when asked). */
function toScimUser(
  row: ScimUserRow,
  base: string,
  attributes?: SCIMMY.Types.Filter,
): ScimResource {
  const user = {
    id: row.id,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    userName: row.user_name,
    name: {
      formatted: row.name,
      ...(row.given_name === null ? {} : { givenName: row.given_name }),
      ...(row.middle_name === null ? {} : { middleName: row.middle_name }),
      ...(row.family_name === null ? {} : { familyName: row.family_name }),
    },
    displayName: row.name,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: !row.disabled,
    meta: { created: row.created_at, lastModified: row.updated_at },
  };
  const shown = new (scimmy().Schemas.User)(
    user,
    'out',
    `${base}/Users`,
    attributes,
  ) as unknown as ScimResource;
  // `schemas` and `id` are returned always (RFC 7643 §3, §7), whatever attributes are asked for.
  return attributes === undefined
    ? shown
    : { ...shown, schemas: [scimmy().Schemas.User.definition.id], id: row.id };
}
