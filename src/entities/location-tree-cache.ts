import { Injectable } from '@nestjs/common';

/** How many bytes of built trees of locations an instance keeps, over all groups. */
export const LOCATION_TREE_CACHE_BYTES = 16 * 1024 * 1024;

interface BuiltTree {
  version: bigint;
  body: Buffer;
}

/**
 * The trees of locations of the groups read lately, as JSON ready to send, each with the version
 * of its group's tree (`location_tree_versions`) read before it was built. A tree is sent again
 * for as long as its group's version is the same, so a group with tens of thousands of
 * locations pays for reading and building its tree once per change of its locations, not per
 * request. Requests that find their version missing share one build. Past the byte budget the
 * least recently read trees are dropped; a tree bigger than the budget is built for every
 * request.
 *
 * Why a tree kept under a version is the tree of that version: the version is read first and
 * the locations after it, so the rows are never older than the version. They may be newer (a
 * change committed in between), but then the group's version has grown, and no later reader can
 * read the old number again.
 */
@Injectable()
export class LocationTreeCache {
  protected readonly budget: number = LOCATION_TREE_CACHE_BYTES;
  private readonly kept = new Map<string, BuiltTree>();
  private readonly building = new Map<string, { version: bigint; body: Promise<Buffer> }>();
  private bytes = 0;

  /** The tree of `groupId` at `version`: kept, being built, or built now by `build`. */
  async tree(groupId: string, version: string, build: () => Promise<Buffer>): Promise<Buffer> {
    const wanted = BigInt(version);
    const kept = this.kept.get(groupId);
    if (kept?.version === wanted) {
      this.kept.delete(groupId);
      this.kept.set(groupId, kept);
      return kept.body;
    }
    const running = this.building.get(groupId);
    if (running?.version === wanted) return running.body;
    const building = { version: wanted, body: build() };
    this.building.set(groupId, building);
    try {
      const body = await building.body;
      this.keep(groupId, wanted, body);
      return body;
    } finally {
      if (this.building.get(groupId) === building) this.building.delete(groupId);
    }
  }

  /** Bytes of the trees kept now. */
  get keptBytes(): number {
    return this.bytes;
  }

  private keep(groupId: string, version: bigint, body: Buffer): void {
    const current = this.kept.get(groupId);
    if (current) {
      if (current.version >= version) return;
      this.kept.delete(groupId);
      this.bytes -= current.body.length;
    }
    if (body.length > this.budget) return;
    this.kept.set(groupId, { version, body });
    this.bytes += body.length;
    for (const [id, tree] of this.kept) {
      if (this.bytes <= this.budget) break;
      this.kept.delete(id);
      this.bytes -= tree.body.length;
    }
  }
}
