import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { isUUID } from 'class-validator';
import type SCIMMY from 'scimmy';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { OutsideUsersService } from '../accounts/outside-users.service.js';
import { GroupsService, oidcSharedGroupKey } from '../groups/groups.service.js';
import { UsersService } from '../users/users.service.js';
import { filterToSql, GROUP_FILTER_COLUMNS } from './scim-filter.js';
import {
  ScimGroupRepository,
  type ScimGroupMemberRow,
  type ScimGroupRow,
} from './scim-group.repository.js';
import { ScimIdentityRepository } from './scim-identity.repository.js';
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

/** What a create, replace or patch asks Trove to store of a group. */
interface ScimGroupInput {
  displayName: string;
  /** Absent from a replace that leaves it out: kept as it is. */
  externalId?: string | null;
  /** The member users' ids, without repeats, in the order sent. */
  members: string[];
}

/** SCIM group names are compared without regard to case: one group per name. */
const displayNameKey = (displayName: string): string => displayName.trim().toLowerCase();

/**
 * The groups an identity provider pushes over SCIM (RFC 7643 §4.2): kept as the provider sends
 * them, with their members (users SCIM provisions: members of the shared group). What a group
 * grants is decided by TROVE_OIDC_ROLE_MAPPING through its display name (`OutsideUsersService`):
 * whenever a user joins or leaves a group, or a group is renamed or deleted, what each affected
 * user's groups grant is applied again, in the same unit of work, so a membership it no longer
 * grants ends on every instance at once.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly groups: ScimGroupRepository,
    private readonly identities: ScimIdentityRepository,
    private readonly troveGroups: GroupsService,
    private readonly outsideUsers: OutsideUsersService,
    private readonly users: UsersService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private async sharedGroupId(): Promise<string | undefined> {
    const name = this.config.get('oidc', { infer: true }).sharedGroup;
    return this.troveGroups.findOidcShared(oidcSharedGroupKey(name));
  }

  /** The groups matching `filter`, a page of them (`startIndex` from 1, `count`). */
  async list(query: ScimQuery, base: string): Promise<ScimListResponse> {
    const params = new (scimmy().Resources.Group)(undefined, listParams(query));
    const startIndex = params.constraints?.startIndex ?? 1;
    const count = Math.min(params.constraints?.count ?? SCIM_DEFAULT_COUNT, SCIM_MAX_RESULTS);
    const condition = params.filter
      ? filterToSql(params.filter, 1, GROUP_FILTER_COLUMNS)
      : { sql: 'true', values: [] };
    const page = await this.groups.findPage(condition, startIndex - 1, count);
    const members = wantsMembers(query)
      ? await this.groups.membersOf(page.rows.map((row) => row.id))
      : undefined;
    return {
      schemas: [scimmy().Messages.ListResponse.id],
      totalResults: page.total,
      startIndex,
      itemsPerPage: page.rows.length,
      Resources: page.rows.map((row) =>
        toScimGroup(
          row,
          members?.filter((member) => member.group_id === row.id),
          base,
          params,
        ),
      ),
    };
  }

  async search(body: unknown, base: string): Promise<ScimListResponse> {
    return this.list(searchQuery(body), base);
  }

  async get(id: string, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.Group)(id, listParams(query));
    return this.shown(await this.findOrFail(id), query, base, params);
  }

  async create(body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.Group)(undefined, listParams(query));
    const id = await this.insert(readGroup(body));
    return this.shown(await this.findOrFail(id), query, base, params);
  }

  async replace(id: string, body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.Group)(id, listParams(query));
    const input = readGroup(body);
    await this.update(await this.findOrFail(id), input);
    return this.shown(await this.findOrFail(id), query, base, params);
  }

  /**
   * Applies a PatchOp message to the group as stored (members added or removed by value, by a
   * `members[value eq "…"]` path or as a whole, the name replaced, externalId removed), then
   * stores the result as a replace does.
   */
  async patch(id: string, body: unknown, query: ScimQuery, base: string): Promise<ScimResource> {
    const params = new (scimmy().Resources.Group)(id, listParams(query));
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw scimError(400, 'invalidSyntax', 'PatchOp request expected a JSON object body');
    }
    await this.applyPatch(id, body as ScimResource, base);
    return this.shown(await this.findOrFail(id), query, base, params);
  }

  @Transactional()
  private async applyPatch(id: string, body: ScimResource, base: string): Promise<void> {
    const row = await this.findOrFail(id);
    const operations = withKeptAttributesOnly(
      withMembersRemovedByValue(body),
      scimmy().Schemas.Group.definition,
    );
    if (!hasOperations(operations)) return;
    const current = toScimGroup(row, await this.groups.membersOf([id]), base);
    const message = new (scimmy().Messages.PatchOp)(
      operations as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0],
    );
    await message.apply(current as never, async (patched: unknown) => {
      const input = readGroup(patched);
      // What the operations leave without an externalId has none: `remove externalId` clears it.
      await this.update(row, { ...input, externalId: input.externalId ?? null });
      return patched as never;
    });
  }

  /** The display names of the groups the provider pushed with this user among their members. */
  async groupNamesOf(userId: string): Promise<string[]> {
    return this.groups.groupNamesOf(userId);
  }

  /** Deletes the group: what it granted its members ends with it. */
  @Transactional()
  async remove(id: string): Promise<void> {
    await this.findOrFail(id);
    const members = (await this.groups.membersOf([id])).map((member) => member.user_id);
    await this.groups.delete(id);
    await this.grantAgain(members);
  }

  private async shown(
    row: ScimGroupRow,
    query: ScimQuery,
    base: string,
    params: SCIMMY.Resources.Group,
  ): Promise<ScimResource> {
    const members = wantsMembers(query) ? await this.groups.membersOf([row.id]) : undefined;
    return toScimGroup(row, members, base, params);
  }

  private async findOrFail(id: string): Promise<ScimGroupRow> {
    const row = isUUID(id) ? await this.groups.findById(id) : undefined;
    if (!row) throw notFound(id);
    return row;
  }

  @Transactional()
  private async insert(input: ScimGroupInput): Promise<string> {
    const key = displayNameKey(input.displayName);
    await this.users.lockForCreation(`trove:scim-group-name:${key}`);
    if (await this.groups.isDisplayNameTaken(key, null)) {
      throw scimError(409, 'uniqueness', `displayName '${input.displayName}' is already in use`);
    }
    await this.checkMembers(input.members);
    const id = await this.groups.insert({
      displayName: input.displayName,
      displayNameKey: key,
      externalId: input.externalId ?? null,
    });
    await this.groups.changeMembers(id, input.members, []);
    await this.grantAgain(input.members);
    return id;
  }

  /** Stores a replace (or a patched resource); an externalId it leaves out stays as it is. */
  @Transactional()
  private async update(row: ScimGroupRow, input: ScimGroupInput): Promise<void> {
    const key = displayNameKey(input.displayName);
    const renamed = input.displayName !== row.display_name;
    if (renamed && key !== displayNameKey(row.display_name)) {
      await this.users.lockForCreation(`trove:scim-group-name:${key}`);
      if (await this.groups.isDisplayNameTaken(key, row.id)) {
        throw scimError(409, 'uniqueness', `displayName '${input.displayName}' is already in use`);
      }
    }
    await this.checkMembers(input.members);
    const before = (await this.groups.membersOf([row.id])).map((member) => member.user_id);
    const added = input.members.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !input.members.includes(id));
    await this.groups.update(row.id, {
      displayName: input.displayName,
      displayNameKey: key,
      externalId: input.externalId === undefined ? row.external_id : input.externalId,
    });
    await this.groups.changeMembers(row.id, added, removed);
    // A new name may grant something else: every member's grants are worked out again.
    await this.grantAgain(renamed ? [...new Set([...before, ...added])] : [...added, ...removed]);
  }

  /** Members are users SCIM sees (the shared group's members); anything else is refused. */
  private async checkMembers(members: string[]): Promise<void> {
    const groupId = await this.sharedGroupId();
    const known = groupId ? await this.identities.membersAmong(groupId, members) : [];
    const unknown = members.filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      throw scimError(
        400,
        'invalidValue',
        `members must be users provisioned here; no user ${unknown.slice(0, 5).join(', ')}`,
      );
    }
  }

  /** Applies again what each user's pushed groups grant them. */
  private async grantAgain(userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      await this.outsideUsers.applyProviderGroups(userId, await this.groups.groupNamesOf(userId));
    }
  }
}

/** Whether the answer shows `members` (a list that leaves them out need not read them). */
function wantsMembers(query: ScimQuery): boolean {
  const names = (value: unknown): string[] =>
    typeof value === 'string' ? value.split(',').map((name) => name.trim().toLowerCase()) : [];
  const excluded = names(query.excludedAttributes);
  if (excluded.some((name) => name === 'members' || name.startsWith('members.'))) return false;
  const asked = names(query.attributes);
  return (
    asked.length === 0 || asked.some((name) => name === 'members' || name.startsWith('members.'))
  );
}

/**
 * Microsoft Entra ID and Authentik remove members with `remove` on `members` and the members as its
 * value, each with `value` and perhaps a null `$ref` or a display name: each becomes the removal of
 * the member with that `value` (`members[value eq "…"]`), whatever else it carries.
 */
function withMembersRemovedByValue(message: ScimResource): ScimResource {
  const operations = message.Operations;
  if (!Array.isArray(operations)) return message;
  return {
    ...message,
    Operations: operations.flatMap((operation: unknown) => {
      if (operation === null || typeof operation !== 'object') return [operation];
      const { op, path, value } = operation as { op?: unknown; path?: unknown; value?: unknown };
      const removesMembers =
        typeof op === 'string' &&
        op.toLowerCase() === 'remove' &&
        typeof path === 'string' &&
        path.trim().toLowerCase() === 'members' &&
        value !== undefined;
      if (!removesMembers) return [operation];
      const members = Array.isArray(value) ? value : [value];
      return members.map((member: unknown) => {
        const id = (member as { value?: unknown } | null)?.value;
        if (typeof id !== 'string' || /["\\]/.test(id)) {
          throw scimError(400, 'invalidValue', 'a member to remove is named by its value');
        }
        return { op: 'remove', path: `members[value eq "${id}"]` };
      });
    }),
  };
}

/** Reads a Group resource sent by the client, checked against SCIM's Group schema. */
function readGroup(body: unknown): ScimGroupInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw scimError(400, 'invalidSyntax', 'expected a Group resource as a JSON object');
  }
  const resource = parsed(
    () =>
      new (scimmy().Schemas.Group)(
        withCoreAttributesAtTop(body as ScimResource, scimmy().Schemas.Group.definition.id),
        'in',
      ),
  ) as unknown as {
    displayName?: string;
    externalId?: string;
    members?: { value?: string; type?: string }[];
  };
  const displayName = (resource.displayName ?? '').trim();
  if (displayName === '' || displayName.length > SCIM_TEXT_MAX_LENGTH) {
    throw scimError(
      400,
      'invalidValue',
      `displayName must have 1 to ${SCIM_TEXT_MAX_LENGTH} characters`,
    );
  }
  const externalId = resource.externalId?.trim();
  if (externalId !== undefined && externalId.length > SCIM_TEXT_MAX_LENGTH) {
    throw scimError(
      400,
      'invalidValue',
      `externalId has more than ${SCIM_TEXT_MAX_LENGTH} characters`,
    );
  }
  const members: string[] = [];
  for (const member of resource.members ?? []) {
    const value = member.value?.trim() ?? '';
    if (member.type !== undefined && member.type.toLowerCase() === 'group') {
      throw scimError(400, 'invalidValue', 'groups within groups are not supported');
    }
    if (!isUUID(value)) {
      throw scimError(
        400,
        'invalidValue',
        `members must be users provisioned here; no user ${value}`,
      );
    }
    if (!members.includes(value.toLowerCase())) members.push(value.toLowerCase());
  }
  return { displayName, externalId: externalId === '' ? null : externalId, members };
}

/** A pushed group as a SCIM Group resource (`members` when read; only the requested attributes). */
function toScimGroup(
  row: ScimGroupRow,
  members: ScimGroupMemberRow[] | undefined,
  base: string,
  params?: SCIMMY.Resources.Group,
): ScimResource {
  const group = {
    id: row.id,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    displayName: row.display_name,
    ...(members === undefined || members.length === 0
      ? {}
      : {
          members: members.map((member) => ({
            value: member.user_id,
            display: member.name,
            $ref: `${base}/Users/${member.user_id}`,
            type: 'User',
          })),
        }),
    meta: { created: row.created_at, lastModified: row.updated_at },
  };
  const attributes = params?.attributes;
  const shown = new (scimmy().Schemas.Group)(
    group,
    'out',
    `${base}/Groups`,
    attributes,
  ) as unknown as ScimResource;
  // `schemas` and `id` are returned always (RFC 7643 §3, §7), whatever attributes are asked for.
  return attributes === undefined
    ? shown
    : { ...shown, schemas: [scimmy().Schemas.Group.definition.id], id: row.id };
}
