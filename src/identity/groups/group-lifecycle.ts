import { Injectable } from '@nestjs/common';

/** What a new group is made with. */
export interface GroupSeedOptions {
  /** The starter locations and tags of a new Homebox collection, besides the entity types. */
  starter: boolean;
}

/**
 * Files a module keeps outside the database for a group's rows (the stored files of attachments,
 * a backup's zip), which must not outlive the group: their keys are read in the deletion's unit
 * of work, before the group's rows go, and released once it has committed.
 */
export interface GroupFiles {
  keysOf(groupId: string): Promise<string[]>;
  /** Never throws: a file that cannot be deleted is logged and stays. */
  release(keys: string[]): Promise<void>;
}

/** What one module keeps for a group, and how it follows the group's creation and deletion. */
export interface GroupParticipant {
  /** Adds the rows a new group starts with, in the unit of work that creates the group. */
  seed?(groupId: string, options: GroupSeedOptions): Promise<void>;
  /** The module's files of a group, released once the group's deletion has committed. */
  files?: GroupFiles;
}

/** The keys of a deleted group's files, by the participant that keeps them. */
export type KeptGroupFiles = { files: GroupFiles; keys: string[] }[];

/**
 * The one extension point of the identity layer. A group is created and deleted here, below the
 * modules that keep rows and files for it (entity types, entities, tags, stored files, backups),
 * so those modules register what they keep at start-up (`onModuleInit`), and a new group is seeded
 * and a deleted group's files released without this layer importing any of them. Seeds run in the
 * order registered, which is the order Nest initialises the modules: a module before the modules
 * that import it, so entity types are seeded before the starter locations that use them.
 * `test/groups/group-lifecycle.e2e-spec.ts` lists what registers, in that order.
 */
@Injectable()
export class GroupLifecycle {
  private readonly participants = new Map<string, GroupParticipant>();

  /** Adds `participant` under `name` (the module that keeps it). */
  register(name: string, participant: GroupParticipant): void {
    if (this.participants.has(name)) throw new Error(`${name} is already a group participant`);
    this.participants.set(name, participant);
  }

  /** The registered participants' names, in order, with what each takes part in. */
  registered(): { name: string; seeds: boolean; files: boolean }[] {
    return [...this.participants].map(([name, participant]) => ({
      name,
      seeds: participant.seed !== undefined,
      files: participant.files !== undefined,
    }));
  }

  /** Seeds a new group, in the caller's unit of work. */
  async seed(groupId: string, options: GroupSeedOptions): Promise<void> {
    for (const participant of this.participants.values())
      await participant.seed?.(groupId, options);
  }

  /** The keys of every participant's files of the group, read before the group is deleted. */
  async filesOf(groupId: string): Promise<KeptGroupFiles> {
    const kept: KeptGroupFiles = [];
    for (const { files } of this.participants.values()) {
      if (files) kept.push({ files, keys: await files.keysOf(groupId) });
    }
    return kept;
  }

  /** Releases the files of a deleted group, once its deletion has committed. */
  async release(kept: KeptGroupFiles): Promise<void> {
    for (const { files, keys } of kept) await files.release(keys);
  }
}
