import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { AttachmentsService } from '../attachments/attachments.service.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { JsonAnswer } from '../common/http/json-answer.js';
import { MaintenanceService } from '../maintenance/maintenance.service.js';
import { StockService } from '../stock/stock.service.js';
import type { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
import type { EntitySummaryDto } from './dto/entity-summary.dto.js';
import { EntitiesService } from './entities.service.js';
import { EntityViewsService } from './entity-views.service.js';

/**
 * Copies of entities. Apart from EntitiesService because a copy takes along what other modules
 * keep (maintenance entries, attachments, stock settings), and those modules depend on
 * EntitiesService.
 */
@Injectable()
export class EntityDuplicatesService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly maintenance: MaintenanceService,
    private readonly attachments: AttachmentsService,
    private readonly stock: StockService,
  ) {}

  /**
   * Copies an entity with its tags and stock settings and, as asked, its fields, maintenance
   * and attachments.
   */
  async duplicate(
    user: AuthUser,
    id: string,
    dto: DuplicateEntityDto,
  ): Promise<JsonAnswer<EntitySummaryDto>> {
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
