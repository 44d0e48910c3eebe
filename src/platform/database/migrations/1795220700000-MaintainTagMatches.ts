import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `up(entity_id, tag_id, depth)`: the links `links` (rows with `entity_id` and `tag_id`) and,
 * for each, every ancestor of its tag: the matches those links make. A CTE for `WITH RECURSIVE`;
 * the walk stops at a thousand levels should a stored tree ever hold a cycle.
 */
const walkUp = (links: string): string => `up(entity_id, tag_id, depth) AS (
    SELECT entity_id, tag_id, 0 FROM ${links}
    UNION
    SELECT u.entity_id, t.parent_id, u.depth + 1 FROM up u JOIN tags t ON t.id = u.tag_id
    WHERE t.parent_id IS NOT NULL AND u.depth < 1000
  )`;

/** Adds the matches `up` (walkUp) with their entities' copies to the match sets. */
const ADD_WALKED = `INSERT INTO tag_matches (entity_id, tag_id, entity_type_id, archived, name)
  SELECT DISTINCT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
  FROM up JOIN entities e ON e.id = up.entity_id
  ORDER BY 1, 2
  ON CONFLICT (entity_id, tag_id) DO NOTHING`;

/**
 * Whether this transaction has not taken the tag tree lock of its group exclusively: whoever
 * takes it (TagRepository.lockGroup) notes the group in the setting `trove.tag_tree_locked`.
 */
const TREE_UNLOCKED = `coalesce(current_setting('trove.tag_tree_locked', true), '') = ''`;

/** Takes the tag tree lock of group `group` shared, until the transaction ends. */
const lockTreeShared = (group: string): string =>
  `pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || ${group}, 0))`;

/** The transition tables each counted event on `tag_matches` sees. */
const COUNTED_SIDES = {
  insert: ['new'],
  update: ['old', 'new'],
  delete: ['old'],
} as const;

/** How many count rows a tag may gather before the next writer folds them into one per key. */
const COUNT_ROWS_KEPT = 32;

/**
 * `tag_matches`: for every tag, the entities a list filtered by it shows (those carrying the tag
 * or one of its descendants), each with copies of its type, archived state and name, which the
 * list filters and orders by; `tag_match_counts`: how many there are per tag, type and archived
 * state. A list filtered by one tag then walks one index in name order and stops at the page,
 * and reads its exact total from a few rows, as the unfiltered list does, instead of expanding
 * the tag, gathering its links and looking up every matching entity.
 *
 * The database keeps both in the transaction of every change:
 * - new links (`entity_tags`) add their tags and those tags' ancestors to their entities' sets;
 * - removed links recompute the match set of the entities concerned from their links and the
 *   tag tree as they now are, so every way a link goes (a tag deleted, an entity deleted, a
 *   group deleted) leaves exact rows;
 * - a tag moved to another parent recomputes the match set of every entity it matches;
 * - a rename, an archiving or a change of type of an entity is copied to its rows;
 * - the counts follow the rows of `tag_matches` themselves (statement triggers). They are kept
 *   as rows of changes that are only ever added, never updated, so writers of the same tag
 *   never wait on each other's counts: a tag's total is the sum of its rows, and once a tag has
 *   more than COUNT_ROWS_KEPT of them, the next writer that gets the tag's advisory lock without
 *   waiting folds them into one per type and archived state.
 *
 * Concurrency: whoever changes a group's tags takes the group's "tag tree" advisory lock
 * exclusively first (TagRepository.lockGroup); every other writer of the match sets (a change of
 * links, a rename, an archiving) takes it shared before it touches them. A recomputation after
 * removed links first locks the rows of its entities, in id order as every change of an entity
 * does. So:
 * - two recomputations of one entity run one after the other, the second seeing what the first
 *   committed;
 * - the match sets are never read from a tag tree that someone is changing, and a tag is moved
 *   or deleted only when no other writer is under way; the tag's own recomputation then runs
 *   with the tree locked, without waiting for any entity's row (the match sets have no foreign
 *   key to the entities for that reason: a link's removal recomputes them, which is how a
 *   deleted entity's rows go), and those who changed links meanwhile write after it, seeing it.
 * Nothing here locks the group row that creates hold.
 */
export class MaintainTagMatches1795220700000 implements MigrationInterface {
  name = 'MaintainTagMatches1795220700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tag_matches" ("entity_id" uuid NOT NULL, "tag_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "archived" boolean NOT NULL, "name" character varying(255) NOT NULL, CONSTRAINT "tag_matches_pkey" PRIMARY KEY ("entity_id", "tag_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "tag_matches" ADD CONSTRAINT "tag_matches_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`WITH RECURSIVE ${walkUp('entity_tags')} ${ADD_WALKED}`);
    // The walk of a filtered list: one tag's matches in the one name order (nameOrder in
    // src/database/name-order.ts; the expressions must stay identical to it), with what the
    // filter needs besides, so the walk reads the index alone.
    await queryRunner.query(
      `CREATE INDEX "tag_matches_name_order_idx" ON "tag_matches"
       (tag_id, lower(name COLLATE "C"), (name COLLATE "C"), entity_id)
       INCLUDE (entity_type_id, archived)`,
    );

    await queryRunner.query(
      `CREATE TABLE "tag_match_counts" ("tag_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "archived" boolean NOT NULL, "entities" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `ALTER TABLE "tag_match_counts" ADD CONSTRAINT "tag_match_counts_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "tag_match_counts_tag_id_idx" ON "tag_match_counts" ("tag_id")`,
    );
    await queryRunner.query(
      `INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
       SELECT tag_id, entity_type_id, archived, count(*) FROM tag_matches
       GROUP BY tag_id, entity_type_id, archived`,
    );

    await queryRunner.query(
      `CREATE FUNCTION "tag_matches_refresh"(of_entities uuid[]) RETURNS void
       LANGUAGE plpgsql AS $$
       BEGIN
         IF cardinality(of_entities) = 0 THEN RETURN; END IF;
         IF ${TREE_UNLOCKED} THEN
           PERFORM 1 FROM entities e WHERE e.id = ANY(of_entities) ORDER BY e.id FOR NO KEY UPDATE;
           PERFORM ${lockTreeShared('g.group_id')}
             FROM (SELECT DISTINCT e.group_id FROM entities e WHERE e.id = ANY(of_entities) ORDER BY 1) g;
         END IF;
         WITH RECURSIVE ${walkUp('(SELECT entity_id, tag_id FROM entity_tags WHERE entity_id = ANY(of_entities)) links')},
         wanted AS (SELECT DISTINCT entity_id, tag_id FROM up),
         removed AS (
           DELETE FROM tag_matches m WHERE m.entity_id = ANY(of_entities)
             AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.entity_id = m.entity_id AND w.tag_id = m.tag_id)
         )
         ${ADD_WALKED};
       END
       $$`,
    );
    // New links only add matches, whatever else happens meanwhile (a concurrent removal's
    // recomputation cannot see them, and an insertion waits for a row being deleted), so the
    // upkeep of an insertion walks the new links' tags up and adds what is missing.
    await queryRunner.query(
      `CREATE FUNCTION "tag_matches_after_link_insert"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM changed_links) THEN RETURN NULL; END IF;
         IF ${TREE_UNLOCKED} THEN
           PERFORM ${lockTreeShared('g.group_id')}
             FROM (SELECT DISTINCT t.group_id FROM changed_links l JOIN tags t ON t.id = l.tag_id ORDER BY 1) g;
         END IF;
         WITH RECURSIVE ${walkUp('changed_links')} ${ADD_WALKED};
         RETURN NULL;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entity_tags_matches_after_insert" AFTER INSERT ON "entity_tags"
       REFERENCING NEW TABLE AS changed_links FOR EACH STATEMENT
       EXECUTE FUNCTION tag_matches_after_link_insert()`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "tag_matches_after_link_delete"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT DISTINCT entity_id FROM changed_links));
         RETURN NULL;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entity_tags_matches_after_delete" AFTER DELETE ON "entity_tags"
       REFERENCING OLD TABLE AS changed_links FOR EACH STATEMENT
       EXECUTE FUNCTION tag_matches_after_link_delete()`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "tag_matches_after_tag_move"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT m.entity_id FROM tag_matches m WHERE m.tag_id = NEW.id));
         RETURN NULL;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "tags_matches_after_move" AFTER UPDATE OF parent_id ON "tags"
       FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id)
       EXECUTE FUNCTION tag_matches_after_tag_move()`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "tag_matches_after_entity_update"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         IF ${TREE_UNLOCKED} THEN PERFORM ${lockTreeShared('NEW.group_id')}; END IF;
         UPDATE tag_matches SET entity_type_id = NEW.entity_type_id, archived = NEW.archived, name = NEW.name
         WHERE entity_id = NEW.id;
         RETURN NULL;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entities_tag_matches_after_update" AFTER UPDATE OF name, archived, entity_type_id ON "entities"
       FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.archived IS DISTINCT FROM NEW.archived
                          OR OLD.entity_type_id IS DISTINCT FROM NEW.entity_type_id)
       EXECUTE FUNCTION tag_matches_after_entity_update()`,
    );

    for (const [event, sides] of Object.entries(COUNTED_SIDES)) {
      const rows = sides
        .map(
          (side) =>
            `SELECT tag_id, entity_type_id, archived, ${side === 'old' ? -1 : 1} AS n FROM ${side}_matches`,
        )
        .join(' UNION ALL ');
      await queryRunner.query(
        `CREATE FUNCTION "tag_match_counts_after_${event}"() RETURNS trigger
         LANGUAGE plpgsql AS $$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (${rows}) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (${rows}) c)
             GROUP BY k.tag_id HAVING count(*) > ${COUNT_ROWS_KEPT}
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $$`,
      );
      const referencing = sides
        .map((side) => `${side.toUpperCase()} TABLE AS ${side}_matches`)
        .join(' ');
      await queryRunner.query(
        `CREATE TRIGGER "tag_matches_counts_after_${event}" AFTER ${event.toUpperCase()} ON "tag_matches"
         REFERENCING ${referencing} FOR EACH STATEMENT
         EXECUTE FUNCTION tag_match_counts_after_${event}()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of Object.keys(COUNTED_SIDES)) {
      await queryRunner.query(`DROP TRIGGER "tag_matches_counts_after_${event}" ON "tag_matches"`);
      await queryRunner.query(`DROP FUNCTION "tag_match_counts_after_${event}"()`);
    }
    await queryRunner.query(`DROP TRIGGER "entities_tag_matches_after_update" ON "entities"`);
    await queryRunner.query(`DROP FUNCTION "tag_matches_after_entity_update"()`);
    await queryRunner.query(`DROP TRIGGER "tags_matches_after_move" ON "tags"`);
    await queryRunner.query(`DROP FUNCTION "tag_matches_after_tag_move"()`);
    for (const event of ['insert', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "entity_tags_matches_after_${event}" ON "entity_tags"`);
      await queryRunner.query(`DROP FUNCTION "tag_matches_after_link_${event}"()`);
    }
    await queryRunner.query(`DROP FUNCTION "tag_matches_refresh"(uuid[])`);
    await queryRunner.query(`DROP TABLE "tag_match_counts"`);
    await queryRunner.query(`DROP TABLE "tag_matches"`);
  }
}
