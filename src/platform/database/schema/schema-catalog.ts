/**
 * Statements that read, from the catalog of a migrated database, the definitions of the maintained
 * tables (`$1`: their names) and of every trigger and function of the schema: each row one
 * definition, in a stable order. Functions that belong to an extension (pg_trgm's) are left out.
 * `schema.snapshot.sql` beside this file holds what they read from a database the migrations
 * made (`test/database/derived-schema.e2e-spec.ts` compares the two); the definitions in code
 * (`src/database-logic.ts`) are checked against the same reading.
 */
export const SCHEMA_DEFINITIONS = {
  tables: `
    SELECT c.relname AS name,
           'TABLE ' || c.relname || E' (\\n' || string_agg(
             '  ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
               || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
               || CASE WHEN a.attidentity = 'a' THEN ' GENERATED ALWAYS AS IDENTITY'
                       WHEN d.adbin IS NOT NULL
                         THEN ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid) ELSE '' END,
             E',\\n' ORDER BY a.attnum) || E'\\n)' AS definition
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    WHERE c.relname = ANY($1)
    GROUP BY c.relname
    ORDER BY c.relname`,
  constraints: `
    SELECT con.conname AS name,
           'CONSTRAINT ' || con.conname || ' ON ' || c.relname || ' '
             || pg_get_constraintdef(con.oid) AS definition
    FROM pg_constraint con
    JOIN pg_class c ON c.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    -- Not-null constraints (PostgreSQL 18 lists them here) are in the tables' columns.
    WHERE c.relname = ANY($1) AND con.contype <> 'n'
    ORDER BY c.relname, con.conname`,
  indexes: `
    SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class c ON c.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE c.relname = ANY($1) AND NOT EXISTS (
      SELECT 1 FROM pg_constraint con WHERE con.conindid = i.oid AND con.contype IN ('p', 'u'))
    ORDER BY c.relname, i.relname`,
  triggers: `
    SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS definition
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE NOT t.tgisinternal
    ORDER BY c.relname, t.tgname`,
  functions: `
    SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = 'public'
    WHERE NOT EXISTS (
      SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
    ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`,
} as const;
