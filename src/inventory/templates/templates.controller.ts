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
import type { JsonText } from '../../platform/http/json-text.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { CreateEntityFromTemplateDto } from './dto/create-entity-from-template.dto.js';
import { CreateTemplateDto } from './dto/create-template.dto.js';
import { EntityFromTemplateStoredDto } from './dto/entity-from-template-stored.dto.js';
import { TemplateListItemDto, TemplateSummaryDto } from './dto/template-summary.dto.js';
import { UpdateTemplateDto } from './dto/update-template.dto.js';
import { TemplatesService } from './templates.service.js';

@ApiTags('templates')
@ApiAuth()
@Controller('templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @ApiOperation({ summary: 'The group’s templates, by name' })
  @ApiOkResponse({ type: [TemplateListItemDto] })
  listTemplates(@CurrentUser() user: AuthUser): Promise<TemplateListItemDto[]> {
    return this.templates.list(user);
  }

  @Post()
  @Idempotent()
  @ApiOperation({
    summary: 'Create a template',
    description:
      'Omitted or null defaults take the stored defaults (quantity 1, texts ""); ' +
      'defaultTagIds must be tags and defaultLocationId an entity of the group.',
  })
  @ApiCreatedResponse({ type: TemplateSummaryDto })
  @ApiErrors(400, 422)
  createTemplate(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateTemplateDto,
  ): Promise<TemplateSummaryDto> {
    return this.templates.create(user, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A template with its defaults and custom fields' })
  @ApiUuidParam('id', 'Template id')
  @ApiOkResponse({ type: TemplateSummaryDto })
  @ApiErrors(400, 404)
  getTemplate(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<TemplateSummaryDto> {
    return this.templates.get(user, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace a template',
    description:
      'The nullable defaults (quantity, name, description, manufacturer, model number, warranty ' +
      'details) are kept when omitted or null; everything else is replaced (texts "", flags ' +
      'false, no location, no tags). Fields with an id are updated, without one added, and ' +
      'those not listed deleted.',
  })
  @ApiUuidParam('id', 'Template id')
  @ApiOkResponse({ type: TemplateSummaryDto })
  @ApiErrors(400, 404, 422)
  updateTemplate(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateTemplateDto,
  ): Promise<TemplateSummaryDto> {
    return this.templates.update(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a template and its fields' })
  @ApiUuidParam('id', 'Template id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteTemplate(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.templates.remove(user, id);
  }

  @Post(':id/create-item')
  @Idempotent()
  @ApiOperation({
    summary: 'Create an entity from a template',
    description:
      'What the body leaves out comes from the template (name with its placeholders filled, ' +
      'description, quantity, parent, tags); insured, lifetime warranty, manufacturer, model ' +
      'number, warranty details and every custom field are copied. Answers with the entity’s ' +
      'stored view and its edges.',
  })
  @ApiUuidParam('id', 'Template id')
  @ApiCreatedResponse({ type: EntityFromTemplateStoredDto })
  @ApiErrors(400, 404, 409, 422)
  createEntityFromTemplate(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: CreateEntityFromTemplateDto,
  ): Promise<JsonText<EntityFromTemplateStoredDto>> {
    return this.templates.createEntity(user, id, dto);
  }
}
