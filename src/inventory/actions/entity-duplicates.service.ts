import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { JsonText } from '../../platform/http/json-text.js';
import type { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
import type { EntitySummaryDto } from '../entities/views/dto/entity-summary.dto.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { AttachmentsService } from '../attachments/attachments.service.js';
import { MaintenanceService } from '../maintenance/maintenance.service.js';
import { StockService } from '../stock/stock.service.js';
import { EntityViewsService } from '../entities/views/entity-views.service.js';

/**
 * Copies of entities. A copy takes along what the modules built on entities keep for it: its
 * stock settings, and as asked its maintenance entries and attachments.
 */
@Injectable()
export class EntityDuplicatesService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly stock: StockService,
    private readonly maintenance: MaintenanceService,
    private readonly attachments: AttachmentsService,
  ) {}

  /**
   * Copies an entity with its tags and stock settings and, as asked, its fields, maintenance
   * and attachments.
   */
  async duplicate(
    user: AuthUser,
    id: string,
    dto: DuplicateEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    const copyId = await this.copy(user, id, dto);
    return this.views.summary(user.groupId, copyId);
  }

  @Transactional()
  private async copy(user: AuthUser, id: string, dto: DuplicateEntityDto): Promise<string> {
    const copyId = await this.entities.insertCopy(
      user,
      id,
      (name) => `${dto.copyPrefix ?? 'Copy of '}${name}`.slice(0, 255),
      dto.copyCustomFields ?? false,
    );
    await this.stock.copy(user.groupId, id, copyId);
    if (dto.copyMaintenance) await this.maintenance.copyAll(id, copyId);
    if (dto.copyAttachments) await this.attachments.copyAll(id, copyId);
    return copyId;
  }
}
