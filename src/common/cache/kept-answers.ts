import { JsonAnswer } from '../http/json-answer.js';

/** How many bytes of answers one kind of kept answer holds per instance, over all groups. */
export const KEPT_ANSWERS_BYTES = 16 * 1024 * 1024;

/**
 * Answers of groups as JSON ready to send, each kept with the version of the data it was built
 * from: the numbers the database raises with every committed change of that data (for example
 * `location_versions`), written `a.b.c`. An answer is sent again for as long as its group's
 * version is the same, so a large answer is read and built once per change of its data, not
 * per request, on every instance alike. Requests that find their version missing share one
 * build. Past the byte budget the least recently read answers are dropped; an answer bigger
 * than the budget is built for every request.
 *
 * Why an answer kept under a version is the answer of that version: the caller reads the
 * version first and the data after it, so the data is never older than the version. It may be
 * newer (a change committed in between), but then the version has grown, and no later reader
 * can read the old number again.
 */
export class KeptAnswers {
  private readonly kept = new Map<string, { version: bigint[]; body: Buffer }>();
  private readonly building = new Map<string, { version: string; body: Promise<Buffer> }>();
  private bytes = 0;

  constructor(private readonly budgetBytes = KEPT_ANSWERS_BYTES) {}

  /**
   * The JSON answer of `groupId` at `version` (`answer`, with `build`'s value written as JSON),
   * with the version as its ETag.
   */
  async json<T>(groupId: string, version: string, build: () => Promise<T>): Promise<JsonAnswer<T>> {
    const body = await this.answer(groupId, version, async () =>
      Buffer.from(JSON.stringify(await build())),
    );
    return new JsonAnswer<T>(body, `"${groupId}.${version}"`);
  }

  /** The answer of `groupId` at `version`: kept, being built, or built now by `build`. */
  async answer(groupId: string, version: string, build: () => Promise<Buffer>): Promise<Buffer> {
    const wanted = parseVersion(version);
    const kept = this.kept.get(groupId);
    if (kept && sameVersion(kept.version, wanted)) {
      this.kept.delete(groupId);
      this.kept.set(groupId, kept);
      return kept.body;
    }
    const running = this.building.get(groupId);
    if (running?.version === version) return running.body;
    const building = { version, body: build() };
    this.building.set(groupId, building);
    try {
      const body = await building.body;
      this.keep(groupId, wanted, body);
      return body;
    } finally {
      if (this.building.get(groupId) === building) this.building.delete(groupId);
    }
  }

  /** Bytes of the answers kept now. */
  get keptBytes(): number {
    return this.bytes;
  }

  private keep(groupId: string, version: bigint[], body: Buffer): void {
    const current = this.kept.get(groupId);
    if (current) {
      if (!isNewer(version, current.version)) return;
      this.kept.delete(groupId);
      this.bytes -= current.body.length;
    }
    if (body.length > this.budgetBytes) return;
    this.kept.set(groupId, { version, body });
    this.bytes += body.length;
    for (const [id, answer] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(id);
      this.bytes -= answer.body.length;
    }
  }
}

const parseVersion = (version: string): bigint[] => version.split('.').map((part) => BigInt(part));

const sameVersion = (a: bigint[], b: bigint[]): boolean =>
  a.length === b.length && a.every((part, index) => part === b[index]);

/** Whether `a` is a later version than `b`: no number lower, one at least higher. */
const isNewer = (a: bigint[], b: bigint[]): boolean =>
  a.length !== b.length || (a.every((part, index) => part >= b[index]) && !sameVersion(a, b));
