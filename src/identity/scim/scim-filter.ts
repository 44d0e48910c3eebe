import type SCIMMY from 'scimmy';
import { scimmy } from './scimmy.js';

/** A piece of SQL with its values, numbered from `$first` on. */
export interface SqlCondition {
  sql: string;
  values: unknown[];
}

type Expression = (string | number | boolean | null)[];

/** How one SCIM attribute is read in SQL. */
interface Column {
  sql: string;
  kind: 'text' | 'caseless' | 'boolean' | 'time' | 'id';
  /**
   * For a multi-valued attribute kept in rows of its own: the condition that some row matches,
   * given the comparison on one row.
   */
  some?: (comparison: string) => string;
}

/** The attributes a filter may name (lower case, as SCIM names are caseless), and their columns. */
export type FilterColumns = Readonly<Record<string, Column>>;

/**
 * What identity providers ask about a user (`u`: users, `s`: scim_identities).
 */
export const USER_FILTER_COLUMNS: FilterColumns = {
  id: { sql: 'u.id::text', kind: 'id' },
  username: { sql: 'coalesce(s.user_name, u.email)', kind: 'caseless' },
  externalid: { sql: 's.external_id', kind: 'text' },
  active: { sql: '(u.disabled_at IS NULL)', kind: 'boolean' },
  displayname: { sql: 'u.name', kind: 'caseless' },
  'name.formatted': { sql: 'u.name', kind: 'caseless' },
  'emails.value': { sql: 'u.email', kind: 'caseless' },
  'meta.created': { sql: 'u.created_at', kind: 'time' },
  'meta.lastmodified': { sql: 'u.updated_at', kind: 'time' },
};

/** What identity providers ask about a pushed group (`g`: scim_groups). */
export const GROUP_FILTER_COLUMNS: FilterColumns = {
  id: { sql: 'g.id::text', kind: 'id' },
  displayname: { sql: 'g.display_name', kind: 'caseless' },
  externalid: { sql: 'g.external_id', kind: 'text' },
  'members.value': {
    sql: 'm.user_id::text',
    kind: 'id',
    some: (comparison) =>
      `EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = g.id AND ${comparison})`,
  },
  'meta.created': { sql: 'g.created_at', kind: 'time' },
  'meta.lastmodified': { sql: 'g.updated_at', kind: 'time' },
};

/** An attribute named without its sub-attribute (`emails`, `members`): its `value`. */
const VALUE_OF = new Set(['emails', 'members']);

const OPERATORS: Record<string, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

const unsupported = (message: string): Error =>
  new (scimmy().Types.Error)(400, 'invalidFilter', message);

/**
 * Turns a SCIM filter, as SCIMMY parsed it (a list of alternatives, each an object whose
 * attributes must all match), into a SQL condition over the `columns` of a resource type, every
 * value a bound parameter from `$first` on. userName, display names and e-mail addresses compare
 * without regard to case (RFC 7643 `caseExact: false`); externalId and ids exactly. An attribute
 * or operator Trove cannot filter on is a 400 `invalidFilter`.
 */
export function filterToSql(
  filter: SCIMMY.Types.Filter,
  first: number,
  columns: FilterColumns,
): SqlCondition {
  const values: unknown[] = [];
  const bind = (value: unknown): string => {
    values.push(value);
    return `$${first + values.length - 1}`;
  };
  const alternatives = [...(filter as unknown as Record<string, unknown>[])].map((branch) =>
    branchToSql(branch, '', bind, columns),
  );
  return { sql: alternatives.length === 0 ? 'true' : `(${alternatives.join(' OR ')})`, values };
}

function branchToSql(
  branch: Record<string, unknown>,
  prefix: string,
  bind: (value: unknown) => string,
  columns: FilterColumns,
): string {
  const parts = Object.entries(branch).map(([attribute, test]) =>
    testToSql(`${prefix}${attribute}`, test, bind, columns),
  );
  return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
}

function testToSql(
  path: string,
  test: unknown,
  bind: (value: unknown) => string,
  columns: FilterColumns,
): string {
  if (Array.isArray(test)) {
    if (test.length > 0 && test.every((item) => item !== null && typeof item === 'object')) {
      // Several expressions on one attribute (all must hold), or alternatives of a sub-filter.
      if (test.every(Array.isArray)) {
        return `(${test.map((item) => testToSql(path, item, bind, columns)).join(' AND ')})`;
      }
      return `(${(test as Record<string, unknown>[])
        .map((item) => branchToSql(item, `${path}.`, bind, columns))
        .join(' OR ')})`;
    }
    return expressionToSql(path, test as Expression, bind, columns);
  }
  if (test !== null && typeof test === 'object') {
    // A complex attribute (`name.formatted`, `emails[value eq …]`): its sub-attributes.
    return branchToSql(test as Record<string, unknown>, `${path}.`, bind, columns);
  }
  throw unsupported(`the filter on '${path}' is not understood`);
}

function expressionToSql(
  path: string,
  expression: Expression,
  bind: (value: unknown) => string,
  columns: FilterColumns,
): string {
  const key = path.toLowerCase();
  const column = Object.hasOwn(columns, key)
    ? columns[key]
    : VALUE_OF.has(key) && Object.hasOwn(columns, `${key}.value`)
      ? columns[`${key}.value`]
      : undefined;
  if (!column) throw unsupported(`filtering on '${path}' is not supported`);
  const negated = String(expression[0]).toLowerCase() === 'not';
  const [operator, expected] = (negated ? expression.slice(1) : expression) as [string, unknown];
  const compared = comparison(path, column, String(operator).toLowerCase(), expected, bind);
  const sql = column.some ? column.some(compared) : compared;
  return negated ? `NOT coalesce(${sql}, false)` : `coalesce(${sql}, false)`;
}

function comparison(
  path: string,
  column: Column,
  operator: string,
  expected: unknown,
  bind: (value: unknown) => string,
): string {
  if (operator === 'pr') return `(${column.sql} IS NOT NULL)`;
  if (operator === 'np') return `(${column.sql} IS NULL)`;
  if (column.kind === 'boolean') {
    const value =
      typeof expected === 'boolean'
        ? expected
        : typeof expected === 'string' && /^(true|false)$/i.test(expected)
          ? expected.toLowerCase() === 'true'
          : undefined;
    if (value === undefined || (operator !== 'eq' && operator !== 'ne')) {
      throw unsupported(`'${path}' takes eq or ne with true or false`);
    }
    return `(${column.sql} ${OPERATORS[operator]} ${bind(value)})`;
  }
  if (typeof expected !== 'string') {
    throw unsupported(`'${path}' is compared with a string`);
  }
  if (column.kind === 'time') {
    const time = new Date(expected);
    if (Number.isNaN(time.getTime()) || !(operator in OPERATORS)) {
      throw unsupported(`'${path}' takes eq, ne, gt, ge, lt or le with a date and time`);
    }
    return `(${column.sql} ${OPERATORS[operator]} ${bind(time)})`;
  }
  const caseless = column.kind === 'caseless';
  const left = caseless ? `lower(${column.sql})` : column.sql;
  const value = caseless ? expected.toLowerCase() : expected;
  const pattern = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
  switch (operator) {
    case 'eq':
    case 'ne':
      return `(${left} ${OPERATORS[operator]} ${bind(value)})`;
    case 'co':
      return `(${left} LIKE ${bind(`%${pattern(value)}%`)})`;
    case 'sw':
      return `(${left} LIKE ${bind(`${pattern(value)}%`)})`;
    case 'ew':
      return `(${left} LIKE ${bind(`%${pattern(value)}`)})`;
    case 'gt':
    case 'ge':
    case 'lt':
    case 'le':
      if (column.kind === 'id') break;
      return `(${left} ${OPERATORS[operator]} ${bind(value)} COLLATE "C")`;
  }
  throw unsupported(`'${path}' cannot be compared with '${operator}'`);
}
