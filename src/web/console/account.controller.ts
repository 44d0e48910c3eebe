import { Body, Get, Header, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeysService } from '../../identity/auth/api-keys.service.js';
import type { AuthIdentity, AuthUser } from '../../identity/auth/auth-user.js';
import {
  CurrentIdentity,
  CurrentUser,
} from '../../identity/auth/decorators/current-user.decorator.js';
import { UserScope } from '../../identity/auth/decorators/user-scope.decorator.js';
import { CreateApiKeyDto, type ApiKeyCreatedDto } from '../../identity/auth/dto/api-key.dto.js';
import { SessionsService } from '../../identity/auth/sessions.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { UsersService } from '../../identity/users/users.service.js';
import { UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { accountPage } from './account.views.js';
import { checked, formValues, textField } from './console-forms.js';
import { ConsoleFrames } from './console-frames.service.js';
import { CONSOLE_PATHS, withQuery } from './console-layout.js';

/**
 * Your account (`/console/account`): who you are and in which groups, your sign-in sessions
 * (end one, or all but this one) and your API keys (create one, its secret shown on that answer
 * only; revoke one). Open to every member, viewers included, as the API's own-account routes
 * are (`@UserScope()`); it goes through the same services (`SessionsService`, `ApiKeysService`).
 */
@Page('console/account')
@UserScope()
export class AccountController {
  constructor(
    private readonly frames: ConsoleFrames,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly sessions: SessionsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Get()
  account(@CurrentUser() user: AuthUser, @Query('done') done?: string): Promise<string> {
    return this.render(user, { done });
  }

  @Post('sessions/:id/end')
  async endSession(
    @CurrentIdentity() caller: AuthIdentity,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.sessions.revokeOwn(caller, id);
    response.redirect(303, withQuery(CONSOLE_PATHS.account, { done: 'Ended the session.' }));
  }

  @Post('sessions/end-others')
  async endOtherSessions(
    @CurrentIdentity() caller: AuthIdentity,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const current = caller.credential.kind === 'session' ? [caller.credential.tokenId] : [];
    await this.sessions.revokeAllForUser(caller.id, current);
    response.redirect(
      303,
      withQuery(CONSOLE_PATHS.account, { done: 'Ended every session but this one.' }),
    );
  }

  /** The address the new key's answer was at, opened again: the account page, without it. */
  @Get('api-keys')
  apiKeysAgain(@Res({ passthrough: true }) response: Response): void {
    response.redirect(303, CONSOLE_PATHS.account);
  }

  /** Creates the key and answers the page with its secret, this once (never in an address). */
  @Post('api-keys')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async createApiKey(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<string> {
    const form = formValues(body);
    const dto = await checked(CreateApiKeyDto, {
      name: textField(form, 'name') ?? '',
      ...(form.never === 'true'
        ? { expiresAt: null }
        : textField(form, 'expiresAt') === undefined
          ? {}
          : { expiresAt: textField(form, 'expiresAt') }),
    });
    const created = await this.apiKeys.create(user, dto);
    return this.render(user, { created, done: `Created the API key “${created.name}”.` });
  }

  @Post('api-keys/:id/revoke')
  async revokeApiKey(
    @CurrentIdentity() caller: AuthIdentity,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.apiKeys.remove(caller, id);
    response.redirect(303, withQuery(CONSOLE_PATHS.account, { done: 'Revoked the API key.' }));
  }

  private async render(
    user: AuthUser,
    extra: { created?: ApiKeyCreatedDto; done?: string },
  ): Promise<string> {
    const [frame, self, groups, sessions, apiKeys] = await Promise.all([
      this.frames.of(user),
      this.users.getSelf(user),
      this.groups.rolesOf(user.id),
      this.sessions.listOwn(user),
      this.apiKeys.list(user),
    ]);
    return accountPage(frame, {
      name: self.name,
      email: self.email,
      groups: groups.map((group) => ({ name: group.name, role: group.role })),
      sessions,
      apiKeys,
      ...extra,
    });
  }
}
