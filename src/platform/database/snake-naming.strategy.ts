import {
  DefaultNamingStrategy,
  type NamingStrategyInterface,
  type Table,
  type View,
} from 'typeorm';

const snake = (name: string): string =>
  name
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z\d]+)/g, '$1_$2')
    .toLowerCase();

const tableNameOf = (tableOrName: Table | View | string): string => {
  const name = typeof tableOrName === 'string' ? tableOrName : tableOrName.name;
  return name.split('.').pop() as string;
};

/**
 * snake_case columns and PostgreSQL-style constraint names (`<table>_<columns>_pkey|fkey|key|idx`),
 * so that migrations, error mapping and `\d` in psql all speak the same names.
 */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override tableName(className: string, customName: string | undefined): string {
    return customName ?? snake(className.replace(/Record$/, ''));
  }

  override columnName(
    propertyName: string,
    customName: string | undefined,
    embeddedPrefixes: string[],
  ): string {
    return snake(embeddedPrefixes.concat(customName ?? propertyName).join('_'));
  }

  override relationName(propertyName: string): string {
    return snake(propertyName);
  }

  override joinColumnName(relationName: string, referencedColumnName: string): string {
    return snake(`${relationName}_${referencedColumnName}`);
  }

  override joinTableColumnName(
    tableName: string,
    propertyName: string,
    columnName?: string,
  ): string {
    return snake(`${tableName}_${columnName ?? propertyName}`);
  }

  override primaryKeyName(tableOrName: Table | string): string {
    return `${tableNameOf(tableOrName)}_pkey`;
  }

  override uniqueConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    return `${tableNameOf(tableOrName)}_${columnNames.join('_')}_key`;
  }

  override foreignKeyName(tableOrName: Table | string, columnNames: string[]): string {
    return `${tableNameOf(tableOrName)}_${columnNames.join('_')}_fkey`;
  }

  override indexName(tableOrName: Table | View | string, columnNames: string[]): string {
    return `${tableNameOf(tableOrName)}_${columnNames.join('_')}_idx`;
  }

  override relationConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    return `${tableNameOf(tableOrName)}_${columnNames.join('_')}_key`;
  }

  override checkConstraintName(tableOrName: Table | string, expression: string): string {
    const column = /"?([a-z_]+)"?\s+IN/i.exec(expression)?.[1] ?? 'value';
    return `${tableNameOf(tableOrName)}_${column}_check`;
  }
}
