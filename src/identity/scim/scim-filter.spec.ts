import SCIMMY from 'scimmy';
import { beforeAll, describe, expect, it } from 'vitest';
import { filterToSql } from './scim-filter.js';
import { loadScimmy } from './scimmy.js';

const sql = (filter: string) => filterToSql(new SCIMMY.Types.Filter(filter), 2);

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
});
