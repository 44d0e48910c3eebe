import { Injectable } from '@nestjs/common';
import type { DuplicateEntityDto } from '../../actions/dto/duplicate-entity.dto.js';
import type { WipeInventoryDto } from '../../actions/dto/wipe-inventory.dto.js';

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
  /** The files outside the database this part keeps for deleted entities (see `PartFiles`). */
  files?: PartFiles;
}

/**
 * Files a part keeps outside the database for its rows (the stored files of attachments), which
 * go with their entities: their keys are read in the deletion's unit of work, before the rows
 * go, and released once it has committed.
 */
export interface PartFiles {
  /** Keys of the files of these entities' rows, each once. */
  keysOfEntities(entityIds: string[]): Promise<string[]>;
  /** Keys of the files of the rows of every entity of the group, each once. */
  keysOfGroup(groupId: string): Promise<string[]>;
  /**
   * Once the unit of work open in the context has committed, deletes each of these files that
   * no row uses any more. Never throws.
   */
  releaseUnused(keys: string[]): Promise<void>;
}

/** The keys of the files of deleted entities, by the part that keeps them. */
export type EntityFiles = Map<PartFiles, string[]>;

/**
 * The parts other modules register (in `onModuleInit`), so that duplicating an entity, wiping an
 * inventory and deleting entities reach them while the entities module imports none of those
 * modules.
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

  /** The keys of every part's files of these entities, read before they are deleted. */
  async filesOfEntities(entityIds: string[]): Promise<EntityFiles> {
    return this.collectFiles((files) =>
      entityIds.length === 0 ? Promise.resolve([]) : files.keysOfEntities(entityIds),
    );
  }

  /** The keys of every part's files of the group's entities, read before they are deleted. */
  async filesOfGroup(groupId: string): Promise<EntityFiles> {
    return this.collectFiles((files) => files.keysOfGroup(groupId));
  }

  /** Releases the files of deleted entities once their deletion has committed. */
  async releaseFiles(files: EntityFiles): Promise<void> {
    for (const [part, keys] of files) await part.releaseUnused(keys);
  }

  private async collectFiles(
    keysOf: (files: PartFiles) => Promise<string[]>,
  ): Promise<EntityFiles> {
    const found: EntityFiles = new Map();
    for (const part of this.parts.values()) {
      if (part.files) found.set(part.files, await keysOf(part.files));
    }
    return found;
  }
}
