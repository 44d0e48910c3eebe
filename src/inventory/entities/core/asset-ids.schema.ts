import type { DatabaseLogic } from '../../../platform/database/schema/database-logic.js';

/**
 * Asset ids: `entity_next_asset_id(group)` answers the next asset id of a group (one above its
 * highest) after locking the group's row until the transaction ends, so that concurrent inserts
 * of one group never share a number; past the largest `bigint` it refuses with `TR409`, which the
 * error filter answers as 409. Called by the insert of an entity (`entity.sql.ts`) and by the
 * action that numbers entities without one. Writes no table.
 */
export const ASSET_IDS: DatabaseLogic = {
  tables: [],
  statements: [
    `CREATE OR REPLACE FUNCTION public.entity_next_asset_id(target uuid)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
       DECLARE
         highest bigint;
       BEGIN
         PERFORM 1 FROM groups WHERE id = target FOR NO KEY UPDATE;
         SELECT coalesce(max(asset_id), 0) INTO highest FROM entities WHERE group_id = target;
         IF highest = 9223372036854775807 THEN
           RAISE EXCEPTION USING ERRCODE = 'TR409', MESSAGE =
             'the group has used every asset id up to 9223372036854775807; give its highest '
             'asset id a lower number to create more entities';
         END IF;
         RETURN highest + 1;
       END
       $function$`,
  ],
};
