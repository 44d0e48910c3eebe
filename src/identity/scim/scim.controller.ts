import {
  All,
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
  VERSION_NEUTRAL,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiExcludeEndpoint,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/decorators/public.decorator.js';
import { publicBaseUrl } from '../../platform/http/public-base-url.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { ScimBodyInterceptor } from './scim-body.interceptor.js';
import { SCIM_CONTENT_TYPE, ScimErrorFilter } from './scim-error.filter.js';
import { scimRouteProblem } from './scim-routes.js';
import { ScimTokenGuard } from './scim-token.guard.js';
import { ScimDiscoveryService } from './scim-discovery.service.js';
import { ScimGroupsService } from './scim-groups.service.js';
import { SCIM_DEFAULT_COUNT, SCIM_MAX_RESULTS, scimError } from './scim-protocol.js';
import { ScimUsersService } from './scim-users.service.js';

/** Where SCIM is served, outside `/api/v1`: `/scim/v2`. */
export const SCIM_BASE_PATH = 'scim/v2';

const SCIM_ERROR_SCHEMA = {
  type: 'object',
  required: ['schemas', 'status', 'detail'],
  properties: {
    schemas: {
      type: 'array',
      items: { type: 'string', enum: ['urn:ietf:params:scim:api:messages:2.0:Error'] },
    },
    status: { type: 'string', example: '400' },
    scimType: { type: 'string', example: 'invalidFilter' },
    detail: { type: 'string' },
  },
};
const errorResponse = (status: number, description: string) => ({
  status,
  description,
  content: { 'application/scim+json': { schema: SCIM_ERROR_SCHEMA } },
});
const UNAUTHORIZED = errorResponse(401, 'No SCIM bearer token, or not TROVE_SCIM_TOKEN');
const NOT_FOUND = errorResponse(
  404,
  'No such user among the shared group’s members (or SCIM is off: TROVE_SCIM_TOKEN unset)',
);
const BAD_REQUEST = errorResponse(
  400,
  'Malformed body, filter or parameter (`scimType`: invalidSyntax, invalidFilter, invalidValue…)',
);
const CONFLICT = errorResponse(409, 'userName or e-mail address already in use (`uniqueness`)');
const UNAVAILABLE = errorResponse(503, 'The database is unavailable; see Retry-After');
const USER_SCHEMA = {
  type: 'object',
  description: 'A SCIM User resource (urn:ietf:params:scim:schemas:core:2.0:User)',
  additionalProperties: true,
  example: {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: 'ada@example.com',
    externalId: '00u1a2b3c4',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
    active: true,
  },
};
const user = (status: number, description: string) => ({
  status,
  description,
  content: { 'application/scim+json': { schema: USER_SCHEMA } },
});
const DOCUMENT = (description: string) => ({
  status: 200,
  description,
  content: { 'application/scim+json': { schema: { type: 'object', additionalProperties: true } } },
});
const ID_PARAM = { name: 'id', description: 'The user’s id (a UUID)', type: String };
const GROUP_ID_PARAM = { name: 'id', description: 'The pushed group’s id (a UUID)', type: String };
const GROUP_CONFLICT = errorResponse(409, 'displayName already in use (`uniqueness`)');
const GROUP_SCHEMA = {
  type: 'object',
  description: 'A SCIM Group resource (urn:ietf:params:scim:schemas:core:2.0:Group)',
  additionalProperties: true,
  example: {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Warehouse team',
    externalId: '00g1a2b3c4',
    members: [{ value: '5b0e7c9a-8d3f-4e21-9a6b-1f2c3d4e5f60' }],
  },
};
const group = (status: number, description: string) => ({
  status,
  description,
  content: { 'application/scim+json': { schema: GROUP_SCHEMA } },
});
const ATTRIBUTES = [
  { name: 'attributes', required: false, type: String, description: 'Only these attributes' },
  {
    name: 'excludedAttributes',
    required: false,
    type: String,
    description: 'All but these attributes',
  },
];

/**
 * SCIM 2.0 (RFC 7643/7644) for the identity provider's provisioning client: discovery
 * documents, Users and Groups. Authenticated by TROVE_SCIM_TOKEN (not by Trove's sessions or API keys);
 * every answer, errors included, is `application/scim+json`.
 */
@ApiTags('scim')
@ApiBearerAuth('scim')
@Public()
@UseGuards(ScimTokenGuard)
@UseInterceptors(ScimBodyInterceptor)
@UseFilters(ScimErrorFilter)
@Controller({ path: SCIM_BASE_PATH, version: VERSION_NEUTRAL })
export class ScimController {
  constructor(
    private readonly scim: ScimUsersService,
    private readonly scimGroups: ScimGroupsService,
    private readonly discovery: ScimDiscoveryService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** `https://<host>/scim/v2`: where SCIM resources are located. */
  private base(request: Request): string {
    const hostname = this.config.get('options', { infer: true }).hostname;
    return `${publicBaseUrl(hostname, request)}/${SCIM_BASE_PATH}`;
  }

  @Get('ServiceProviderConfig')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: what this service provider supports',
    description:
      'PATCH and filters (at most 200 results a page) are supported; bulk, sorting, ETags and ' +
      'password changes are not. Authentication: `Authorization: Bearer <TROVE_SCIM_TOKEN>`.',
  })
  @ApiProduces('application/scim+json')
  @ApiResponse(DOCUMENT('The ServiceProviderConfig resource'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  getScimServiceProviderConfig(@Req() request: Request): Promise<unknown> {
    return this.discovery.serviceProviderConfig(this.base(request));
  }

  @Get('ResourceTypes')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: the resource types served (User, Group)' })
  @ApiProduces('application/scim+json')
  @ApiResponse(DOCUMENT('A ListResponse of ResourceType resources'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  listScimResourceTypes(@Req() request: Request): Promise<unknown> {
    return this.discovery.resourceTypes(this.base(request));
  }

  @Get('ResourceTypes/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: one resource type (`User` or `Group`)' })
  @ApiProduces('application/scim+json')
  @ApiResponse(DOCUMENT('The ResourceType resource'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  getScimResourceType(@Req() request: Request, @Param('id') id: string): Promise<unknown> {
    return this.discovery.resourceTypes(this.base(request), id);
  }

  @Get('Schemas')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: the schemas served (core User and Group)' })
  @ApiProduces('application/scim+json')
  @ApiResponse(DOCUMENT('A ListResponse of Schema resources'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  listScimSchemas(@Req() request: Request): Promise<unknown> {
    return this.discovery.schemas(this.base(request));
  }

  @Get('Schemas/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: one schema, by its URN' })
  @ApiProduces('application/scim+json')
  @ApiResponse(DOCUMENT('The Schema resource'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  getScimSchema(@Req() request: Request, @Param('id') id: string): Promise<unknown> {
    return this.discovery.schemas(this.base(request), id);
  }

  @Get('Users')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: list or find users',
    description:
      'The members of the shared single sign-on group (TROVE_OIDC_SHARED_GROUP), oldest first. ' +
      '`filter` may name `userName`, `externalId`, `active`, `id`, `displayName`, ' +
      '`name.formatted`, `emails.value`, `meta.created` and `meta.lastModified` with eq, ne, co, ' +
      'sw, ew, gt, ge, lt, le, pr, and, or and not (userName and e-mail addresses without ' +
      `regard to case). Paging: \`startIndex\` (from 1) and \`count\` (${SCIM_DEFAULT_COUNT} ` +
      `unless given, at most ${SCIM_MAX_RESULTS}).`,
  })
  @ApiProduces('application/scim+json')
  @ApiQuery({
    name: 'filter',
    required: false,
    type: String,
    example: 'userName eq "ada@example.com"',
  })
  @ApiQuery({ name: 'startIndex', required: false, type: Number })
  @ApiQuery({ name: 'count', required: false, type: Number })
  @ApiQuery(ATTRIBUTES[0])
  @ApiQuery(ATTRIBUTES[1])
  @ApiResponse(DOCUMENT('A ListResponse of User resources'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  listScimUsers(
    @Req() request: Request,
    @Query() query: Record<string, unknown>,
  ): Promise<unknown> {
    return this.scim.list(query, this.base(request));
  }

  @Post('Users')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: provision a user',
    description:
      'The user joins the shared single sign-on group with the role `user` (the first user ' +
      'provisioned before anyone signed in creates the group and owns it) and has no password: ' +
      'their first sign-in through the provider links them by e-mail address. The e-mail ' +
      'address is the primary (else first) of `emails`, or `userName` when that is one. ' +
      '`active: false` creates the account disabled.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiBody({ schema: USER_SCHEMA })
  @ApiResponse(user(201, 'The User resource; Location names it'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(CONFLICT)
  @ApiResponse(UNAVAILABLE)
  async createScimUser(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    const created = await this.scim.create(body, query, this.base(request));
    const location = (created.meta as { location?: string } | undefined)?.location;
    if (location) response.setHeader('Location', location);
    response.status(201);
    return created;
  }

  @Post('Users/.search')
  @HttpCode(200)
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: find users with a SearchRequest (RFC 7644 §3.4.3)',
    description:
      'The same search as `GET /Users`, its parameters sent as a SearchRequest message: ' +
      '`filter`, `startIndex`, `count`, and `attributes`/`excludedAttributes` as arrays.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: true,
      example: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'userName eq "ada@example.com"',
        attributes: ['userName', 'emails'],
        startIndex: 1,
        count: 10,
      },
    },
  })
  @ApiResponse(DOCUMENT('A ListResponse of User resources'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  searchScimUsers(@Req() request: Request, @Body() body: unknown): Promise<unknown> {
    return this.scim.search(body, this.base(request));
  }

  @Get('Users/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: one user' })
  @ApiProduces('application/scim+json')
  @ApiParam(ID_PARAM)
  @ApiQuery(ATTRIBUTES[0])
  @ApiQuery(ATTRIBUTES[1])
  @ApiResponse(user(200, 'The User resource'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  getScimUser(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<unknown> {
    return this.scim.get(id, query, this.base(request));
  }

  @Put('Users/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: replace a user',
    description:
      'userName, name and e-mail address as sent; `active` and `externalId` stay as they are ' +
      'when left out. `active: false` disables the account: every session, attachment token ' +
      'and API key of the user ends on every instance at once and their change-feed sockets ' +
      'close; `active: true` enables it again.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiParam(ID_PARAM)
  @ApiBody({ schema: USER_SCHEMA })
  @ApiResponse(user(200, 'The User resource'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(CONFLICT)
  @ApiResponse(UNAVAILABLE)
  replaceScimUser(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    return this.scim.replace(id, body, query, this.base(request));
  }

  @Patch('Users/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: change a user with PATCH operations',
    description:
      'A PatchOp message (add, remove, replace; with or without `path`); the result is stored ' +
      'as a replace is. `active` given as the string "True" or "False" (as Microsoft Entra ID ' +
      'sends it) is read as the boolean.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiParam(ID_PARAM)
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: true,
      example: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      },
    },
  })
  @ApiResponse(user(200, 'The User resource'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(CONFLICT)
  @ApiResponse(UNAVAILABLE)
  patchScimUser(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    return this.scim.patch(id, body, query, this.base(request));
  }

  @Delete('Users/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'SCIM: delete a user',
    description:
      'Deletes the account as its owner would (sessions, API keys and memberships go; what the ' +
      'user changed stays, attributed by id).',
  })
  @ApiParam(ID_PARAM)
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  deleteScimUser(@Param('id') id: string): Promise<void> {
    return this.scim.remove(id);
  }

  @Get('Groups')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: list or find pushed groups',
    description:
      'The groups the identity provider pushed, oldest first. `filter` may name `displayName` ' +
      '(without regard to case), `externalId`, `id`, `members.value` (a member’s user id), ' +
      '`meta.created` and `meta.lastModified`. `excludedAttributes=members` leaves the members ' +
      `out. Paging: \`startIndex\` (from 1) and \`count\` (${SCIM_DEFAULT_COUNT} unless given, ` +
      `at most ${SCIM_MAX_RESULTS}).`,
  })
  @ApiProduces('application/scim+json')
  @ApiQuery({
    name: 'filter',
    required: false,
    type: String,
    example: 'displayName eq "Warehouse team"',
  })
  @ApiQuery({ name: 'startIndex', required: false, type: Number })
  @ApiQuery({ name: 'count', required: false, type: Number })
  @ApiQuery(ATTRIBUTES[0])
  @ApiQuery(ATTRIBUTES[1])
  @ApiResponse(DOCUMENT('A ListResponse of Group resources'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  listScimGroups(
    @Req() request: Request,
    @Query() query: Record<string, unknown>,
  ): Promise<unknown> {
    return this.scimGroups.list(query, this.base(request));
  }

  @Post('Groups')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: push a group',
    description:
      'Kept as sent, so the provider sees its own state. What it grants follows from ' +
      'TROVE_OIDC_ROLE_MAPPING by its display name: `<group>=<role>` a role in the shared group, ' +
      '`<group>=<Trove group>:<role>` membership of that Trove group with that role, ' +
      '`<group>=admin` instance administration; a group the mapping does not name grants ' +
      'nothing. Members are users provisioned here (by `value`, their id); display names are ' +
      'unique without regard to case.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiBody({ schema: GROUP_SCHEMA })
  @ApiResponse(group(201, 'The Group resource; Location names it'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(GROUP_CONFLICT)
  @ApiResponse(UNAVAILABLE)
  async createScimGroup(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    const created = await this.scimGroups.create(body, query, this.base(request));
    const location = (created.meta as { location?: string } | undefined)?.location;
    if (location) response.setHeader('Location', location);
    response.status(201);
    return created;
  }

  @Post('Groups/.search')
  @HttpCode(200)
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: find pushed groups with a SearchRequest (RFC 7644 §3.4.3)',
    description: 'The same search as `GET /Groups`, its parameters sent as a SearchRequest.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiResponse(DOCUMENT('A ListResponse of Group resources'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  searchScimGroups(@Req() request: Request, @Body() body: unknown): Promise<unknown> {
    return this.scimGroups.search(body, this.base(request));
  }

  @Get('Groups/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({ summary: 'SCIM: one pushed group' })
  @ApiProduces('application/scim+json')
  @ApiParam(GROUP_ID_PARAM)
  @ApiQuery(ATTRIBUTES[0])
  @ApiQuery(ATTRIBUTES[1])
  @ApiResponse(group(200, 'The Group resource'))
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  getScimGroup(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<unknown> {
    return this.scimGroups.get(id, query, this.base(request));
  }

  @Put('Groups/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: replace a pushed group',
    description:
      'Name and members as sent (`externalId` stays when left out). A member left out loses ' +
      'what the group granted at once, on every instance; what they did stays attributed.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiParam(GROUP_ID_PARAM)
  @ApiBody({ schema: GROUP_SCHEMA })
  @ApiResponse(group(200, 'The Group resource'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(GROUP_CONFLICT)
  @ApiResponse(UNAVAILABLE)
  replaceScimGroup(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    return this.scimGroups.replace(id, body, query, this.base(request));
  }

  @Patch('Groups/:id')
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  @ApiOperation({
    summary: 'SCIM: change a pushed group with PATCH operations',
    description:
      'add, remove and replace (in any case, as Entra ID sends "Add"), on `members` with a ' +
      'list of `{value}`, on `members[value eq "<id>"]`, on `displayName` and `externalId`, or ' +
      'without a path. A member removed loses what the group granted at once, on every instance.',
  })
  @ApiConsumes('application/scim+json', 'application/json')
  @ApiParam(GROUP_ID_PARAM)
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: true,
      example: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          {
            op: 'add',
            path: 'members',
            value: [{ value: '5b0e7c9a-8d3f-4e21-9a6b-1f2c3d4e5f60' }],
          },
        ],
      },
    },
  })
  @ApiResponse(group(200, 'The Group resource'))
  @ApiResponse(BAD_REQUEST)
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(GROUP_CONFLICT)
  @ApiResponse(UNAVAILABLE)
  patchScimGroup(
    @Req() request: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<unknown> {
    return this.scimGroups.patch(id, body, query, this.base(request));
  }

  @Delete('Groups/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'SCIM: delete a pushed group',
    description: 'What the group granted its members ends at once, on every instance.',
  })
  @ApiParam(GROUP_ID_PARAM)
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiResponse(UNAUTHORIZED)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(UNAVAILABLE)
  deleteScimGroup(@Param('id') id: string): Promise<void> {
    return this.scimGroups.remove(id);
  }

  /**
   * Whatever no route above takes under `/scim/v2` (declared last, so matched last): a SCIM
   * error, `404`, `405` with `Allow`, or `501` for an endpoint of the protocol not offered.
   */
  @All('*path')
  @ApiExcludeEndpoint()
  unknownScimEndpoint(@Req() request: Request, @Res() response: Response): never {
    return this.unknownScimPath(request, response);
  }

  /** `/scim/v2` itself, which names no endpoint: as `unknownScimEndpoint`. */
  @All('/')
  @ApiExcludeEndpoint()
  unknownScimRoot(@Req() request: Request, @Res() response: Response): never {
    return this.unknownScimPath(request, response);
  }

  private unknownScimPath(request: Request, response: Response): never {
    const at = request.path.indexOf(`/${SCIM_BASE_PATH}`);
    const path = at === -1 ? '/' : request.path.slice(at + SCIM_BASE_PATH.length + 1) || '/';
    const problem = scimRouteProblem(request.method, path);
    if (problem.allow) response.setHeader('Allow', problem.allow.join(', '));
    throw scimError(problem.status, null, problem.detail);
  }
}
