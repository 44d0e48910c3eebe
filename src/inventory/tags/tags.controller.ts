import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { CreateTagDto } from './dto/create-tag.dto.js';
import { TagOutDto } from './dto/tag-out.dto.js';
import { TagSummaryDto } from './dto/tag-summary.dto.js';
import { UpdateTagDto } from './dto/update-tag.dto.js';
import { TagsService } from './tags.service.js';

@ApiTags('tags')
@ApiAuth()
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiOperation({ summary: 'Every tag of the group, sorted by name' })
  @ApiOkResponse({ type: [TagSummaryDto] })
  listTags(@CurrentUser() user: AuthUser): Promise<TagSummaryDto[]> {
    return this.tags.list(user);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a tag, optionally nested under another (at most 5 levels)' })
  @ApiCreatedResponse({ type: TagOutDto })
  @ApiErrors(400, 422)
  createTag(@CurrentUser() user: AuthUser, @Body() dto: CreateTagDto): Promise<TagOutDto> {
    return this.tags.create(user, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A tag with its parent and direct children' })
  @ApiUuidParam('id', 'Tag id')
  @ApiOkResponse({ type: TagOutDto })
  @ApiErrors(400, 404)
  getTag(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<TagOutDto> {
    return this.tags.get(user, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace a tag; an omitted parentId makes it a root, omitted texts become ""',
  })
  @ApiUuidParam('id', 'Tag id')
  @ApiOkResponse({ type: TagOutDto })
  @ApiErrors(400, 404, 422)
  updateTag(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateTagDto,
  ): Promise<TagOutDto> {
    return this.tags.update(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a tag; its children become roots and it leaves every entity' })
  @ApiUuidParam('id', 'Tag id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteTag(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.tags.remove(user, id);
  }
}
