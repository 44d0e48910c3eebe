import { Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import type { AuthIdentity } from './auth-user.js';
import { ApiAuth } from './decorators/api-auth.decorator.js';
import { CurrentIdentity } from './decorators/current-user.decorator.js';
import { UserScope } from './decorators/user-scope.decorator.js';
import { SessionDto } from './dto/session.dto.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('users')
@ApiAuth()
@UserScope()
@Controller('users/self/sessions')
export class SelfSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOperation({
    summary: 'The caller’s sign-in sessions, newest first',
    description:
      'Unexpired sessions only; `current` marks the one making the request (none when the ' +
      'request is made with an API key).',
  })
  @ApiOkResponse({ type: [SessionDto] })
  listSessions(@CurrentIdentity() caller: AuthIdentity): Promise<SessionDto[]> {
    return this.sessions.listOwn(caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'End one of the caller’s sessions',
    description:
      'Ends it as logout does: with its attachment token, on every instance at once, closing ' +
      'the change-feed sockets opened with either.',
  })
  @ApiUuidParam('id', 'Session id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteSession(
    @CurrentIdentity() caller: AuthIdentity,
    @UuidParam('id') id: string,
  ): Promise<void> {
    return this.sessions.revokeOwn(caller, id);
  }
}
