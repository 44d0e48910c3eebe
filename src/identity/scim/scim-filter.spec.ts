import SCIMMY from 'scimmy';
import { beforeAll, describe, expect, it } from 'vitest';
import { filterToSql, GROUP_FILTER_COLUMNS, USER_FILTER_COLUMNS } from './scim-filter.js';
import { loadScimmy } from './scimmy.js';

const sql = (filter: string) =>
  filterToSql(new SCIMMY.Types.Filter(filter), 2, USER_FILTER_COLUMNS);
const groupSql = (filter: string) =>
  filterToSql(new SCIMMY.Types.Filter(filter), 2, GROUP_FILTER_COLUMNS);

describe('filterToSql', () => {
  // Trove imports SCIMMY at start-up only while SCIM is on.
  beforeAll(async () => {
    await loadScimmy();
  });

  it('compares userName without regard to case and externalId exactly, every value bound', () => {
    expect(sql('userName eq "Ada@Example.com" or externalId eq "X1"')).toEqual({
      sql:
        '((coalesce((lower(coalesce(s.user_name, u.email)) = $2), false)) OR ' +
        '(coalesce((s.external_id = $3), false)))',
      values: ['ada@example.com', 'X1'],
    });
  });

  it('reads active as a boolean (also "False" as Entra ID sends it) and negates with not', () => {
    expect(sql('active eq "False" and not (userName sw "a_b")')).toEqual({
      sql:
        '((coalesce(((u.disabled_at IS NULL) = $2), false) AND ' +
        'NOT coalesce((lower(coalesce(s.user_name, u.email)) LIKE $3), false)))',
      values: [false, 'a\\_b%'],
    });
  });

  it('reaches e-mail addresses and times through their complex attributes', () => {
    expect(sql('emails[value co "@x"] and meta.lastModified gt "2024-01-01T00:00:00Z"')).toEqual({
      sql:
        '(((coalesce((lower(u.email) LIKE $2), false)) AND ' +
        '(coalesce((u.updated_at > $3), false))))',
      values: ['%@x%', new Date('2024-01-01T00:00:00Z')],
    });
  });

  it('refuses attributes and comparisons it cannot answer with invalidFilter', () => {
    for (const [filter, message] of [
      ['title eq "x"', "filtering on 'title' is not supported"],
      ['active gt true', "'active' takes eq or ne with true or false"],
      ['id gt "a"', "'id' cannot be compared with 'gt'"],
      [
        'meta.created gt "soon"',
        "'meta.created' takes eq, ne, gt, ge, lt or le with a date and time",
      ],
    ]) {
      expect(() => sql(filter)).toThrow(
        expect.objectContaining({ status: 400, scimType: 'invalidFilter', message }),
      );
    }
  });

  it('finds a group by its name without regard to case, and by a member through its rows', () => {
    const member = '0b9b1f4e-1c1a-4d7e-9e5e-3f7a2b1c0d9e';
    expect(groupSql(`displayName eq "Stores" and members[value eq "${member}"]`)).toEqual({
      sql:
        '((coalesce((lower(g.display_name) = $2), false) AND ' +
        '(coalesce(EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = g.id AND ' +
        '(m.user_id::text = $3)), false))))',
      values: ['stores', member],
    });
    expect(groupSql(`members eq "${member}"`).sql).toContain('EXISTS (SELECT 1');
    expect(() => groupSql('userName eq "x"')).toThrow(
      expect.objectContaining({ scimType: 'invalidFilter' }),
    );
  });
});
