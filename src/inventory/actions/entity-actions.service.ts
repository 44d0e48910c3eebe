import { ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { TagsService } from '../tags/tags.service.js';
import type { EntityActionResultDto } from './dto/entity-action-result.dto.js';
import type { WipeInventoryDto } from './dto/wipe-inventory.dto.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { MaintenanceService } from '../maintenance/maintenance.service.js';
import { StoredFilesService } from '../stored-files/stored-files.service.js';

export const WIPE_OWNER_ONLY_MESSAGE = 'only group owners can wipe inventory';
export const DEMO_MESSAGE = 'not allowed in demo mode';

/**
 * Maintenance actions over all the entities of the caller's group (Homebox's "actions"). Each
 * runs in one unit of work, and announces a change only when it changed something.
 */
@Injectable()
export class EntityActionsService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly maintenance: MaintenanceService,
    private readonly storedFiles: StoredFilesService,
    private readonly tags: TagsService,
    private readonly changes: ChangeEvents,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Numbers the entities without an asset id after the group's highest, oldest first. */
  @Transactional()
  async ensureAssetIds(user: AuthUser): Promise<EntityActionResultDto> {
    return this.changed(user, await this.entities.numberMissingAssetIds(user.groupId));
  }

  /** Gives the entities without an import ref a random one of eight characters. */
  @Transactional()
  async ensureImportRefs(user: AuthUser): Promise<EntityActionResultDto> {
    return this.changed(user, await this.entities.fillMissingImportRefs(user.groupId));
  }

  /**
   * Homebox keeps these dates as timestamps and moves each to midnight; Trove keeps calendar
   * dates, which have no time to move. What is left is the other half: dates before year 100
   * (placeholders for "none", such as 0001-01-01) are cleared. Counts the entities changed.
   */
  @Transactional()
  async zeroTimeFields(user: AuthUser): Promise<EntityActionResultDto> {
    return this.changed(user, await this.entities.clearSentinelDates(user.groupId));
  }

  /**
   * Deletes every entity of the group (locations too, whatever `wipeLocations` says) with its
   * fields, attachments and maintenance, and with `wipeTags` every tag. `completed` counts the
   * entities, the tags deleted and, with `wipeMaintenance`, the maintenance entries. Owners
   * only, never in demo mode. Once committed, the stored files no attachment uses any more are
   * deleted.
   */
  async wipeInventory(user: AuthUser, dto: WipeInventoryDto): Promise<EntityActionResultDto> {
    if (this.config.get('options', { infer: true }).demo) {
      throw new ForbiddenException(DEMO_MESSAGE);
    }
    if (user.role !== 'owner') throw new ForbiddenException(WIPE_OWNER_ONLY_MESSAGE);
    const { completed, files } = await this.wipe(user, dto);
    await this.storedFiles.releaseUnused(files);
    return { completed };
  }

  @Transactional()
  private async wipe(
    user: AuthUser,
    dto: WipeInventoryDto,
  ): Promise<{ completed: number; files: string[] }> {
    const files = await this.storedFiles.keysOfGroup(user.groupId);
    // Maintenance entries go first (their entities would take them along), to be counted as asked.
    let completed = dto.wipeMaintenance ? await this.maintenance.deleteAllOfGroup(user.groupId) : 0;
    completed += await this.entities.deleteAllOfGroup(user.groupId);
    if (dto.wipeTags) completed += await this.tags.removeAllOfGroup(user.groupId);
    if (completed > 0) await this.changes.publish(user.groupId, 'entity.mutation');
    return { completed, files };
  }

  private async changed(user: AuthUser, completed: number): Promise<EntityActionResultDto> {
    if (completed > 0) await this.changes.publish(user.groupId, 'entity.mutation');
    return { completed };
  }
}
