import { Injectable } from '@nestjs/common';
import type { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
import type { WipeInventoryDto } from './dto/wipe-inventory.dto.js';

/**
 * What a module built on entities keeps for each entity (stock settings, maintenance entries,
 * attachments), and how it follows its entity when the entity is duplicated or the group's
 * inventory wiped. Each step runs in the caller's unit of work.
 */
export interface EntityPart {
  /** Copies the part of `fromId` to `toId`, as far as `dto` asks for it. */
  copy?(groupId: string, fromId: string, toId: string, dto: DuplicateEntityDto): Promise<void>;
  /** Deletes the group's rows before its entities go, as far as `dto` asks; how many went. */
  wipe?(groupId: string, dto: WipeInventoryDto): Promise<number>;
}

/**
 * The parts other modules register (in `onModuleInit`), so that duplicating an entity and
 * wiping an inventory reach them while the entities module imports none of those modules.
 */
@Injectable()
export class EntityParts {
  private readonly parts = new Map<string, EntityPart>();

  /** Adds `part` under `name` (the module that keeps it). */
  register(name: string, part: EntityPart): void {
    this.parts.set(name, part);
  }

  /** Copies every registered part of `fromId` to `toId`, in the order registered. */
  async copy(groupId: string, fromId: string, toId: string, dto: DuplicateEntityDto) {
    for (const part of this.parts.values()) await part.copy?.(groupId, fromId, toId, dto);
  }

  /** Wipes every registered part of the group; how many rows went in all. */
  async wipe(groupId: string, dto: WipeInventoryDto): Promise<number> {
    let wiped = 0;
    for (const part of this.parts.values()) wiped += (await part.wipe?.(groupId, dto)) ?? 0;
    return wiped;
  }
}
