/**
 * The name of a group's "tag tree" advisory lock (see `advisoryLock`): taken exclusively by
 * whoever changes the group's tags, shared by whoever removes links, and shared by the database's
 * upkeep of the kept tag matches, whose triggers (migration MaintainTagMatches) build the same
 * name as `'tag tree ' || group_id`.
 */
export const tagTreeLock = (groupId: string): string => `tag tree ${groupId}`;
