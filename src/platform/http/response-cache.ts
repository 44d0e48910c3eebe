import { JsonText } from './json-text.js';

/** How many bytes of responses one response cache holds per instance, over all groups. */
export const RESPONSE_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A cache of one kind of response per group, as JSON ready to send, each kept with the version of
 * the data it was built from: the numbers the database raises with every committed change of that
 * data (for example `location_versions`), written `a.b.c`. A response is sent again for as long
 * as its group's version is the same, so a large response is read and built once per change of
 * its data, not per request, on every instance alike. Requests that find their version missing
 * share one build. Past the byte budget the least recently read responses are dropped; a response
 * bigger than the budget is built for every request.
 *
 * Why a response kept under a version is the response of that version: the caller reads the
 * version first and the data after it, so the data is never older than the version. It may be
 * newer (a change committed in between), but then the version has grown, and no later reader
 * can read the old number again.
 */
export class ResponseCache {
  private readonly kept = new Map<string, { version: bigint[]; body: Buffer }>();
  private readonly building = new Map<string, { version: string; body: Promise<Buffer> }>();
  private bytes = 0;

  constructor(private readonly budgetBytes = RESPONSE_CACHE_BYTES) {}

  /**
   * The JSON response of `groupId` at `version` (`body`, with `build`'s value written as JSON),
   * with the version as its ETag.
   */
  async json<T>(groupId: string, version: string, build: () => Promise<T>): Promise<JsonText<T>> {
    const body = await this.body(groupId, version, async () =>
      Buffer.from(JSON.stringify(await build())),
    );
    return new JsonText<T>(body, `"${groupId}.${version}"`);
  }

  /** The response body of `groupId` at `version`: kept, being built, or built now by `build`. */
  async body(groupId: string, version: string, build: () => Promise<Buffer>): Promise<Buffer> {
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

  /** Bytes of the responses kept now. */
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
    for (const [id, response] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(id);
      this.bytes -= response.body.length;
    }
  }
}

const parseVersion = (version: string): bigint[] => version.split('.').map((part) => BigInt(part));

const sameVersion = (a: bigint[], b: bigint[]): boolean =>
  a.length === b.length && a.every((part, index) => part === b[index]);

/** Whether `a` is a later version than `b`: no number lower, one at least higher. */
const isNewer = (a: bigint[], b: bigint[]): boolean =>
  a.length !== b.length || (a.every((part, index) => part >= b[index]) && !sameVersion(a, b));
