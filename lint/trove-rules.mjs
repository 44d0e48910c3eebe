/**
 * Trove's own lint rules (docs/architecture.md, "Modules and layers" and "Table ownership"). A
 * module is a folder two levels below `src/` (`src/<layer>/<module>/`, its sub-modules included);
 * what sits at the top of `src/` (the app, `records.ts`, `database-logic.ts`, `cli/`) belongs to
 * no module and is exempt.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** `src/<layer>/<module>` of a file under src/, or undefined above the modules. */
function moduleOf(file) {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length >= 3 ? `src/${relative[0]}/${relative[1]}` : undefined;
}

function* filesUnder(directory, suffix) {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full, suffix);
    else if (entry.name.endsWith(suffix)) yield full;
  }
}

let owners;
/**
 * The module that owns each table: the one whose record names it (`@Entity('...')`, or a join
 * table's `@JoinTable({ name: '...' })`), or whose `*.schema.ts` lists it among the tables it
 * maintains. The job queue's schema (`pgboss`) is the jobs module's.
 */
function tableOwners() {
  if (owners) return owners;
  owners = new Map();
  const add = (table, file) => owners.set(table, moduleOf(file));
  for (const file of filesUnder(SRC, '.record.ts')) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/@Entity\(\s*(?:\{\s*name:\s*)?['"](\w+)['"]/g))
      add(match[1], file);
    for (const match of text.matchAll(/@JoinTable\(\s*\{\s*name:\s*['"](\w+)['"]/g))
      add(match[1], file);
  }
  for (const file of filesUnder(SRC, '.schema.ts')) {
    const tables = /tables:\s*\[([^\]]*)\]/.exec(fs.readFileSync(file, 'utf8'));
    for (const match of (tables?.[1] ?? '').matchAll(/'(\w+)'/g)) add(match[1], file);
  }
  return owners;
}

/** Writes another module may make, each with its reason; every other write is the owner's. */
const EXEMPT_WRITERS = [
  {
    // Migrations make and change every table: they are the schema's history, not a module.
    under: 'src/platform/database/migrations/',
  },
  {
    // A collection restore writes a whole group's inventory from one versioned format, in one
    // transaction; the format is kept whole in one place (docs/architecture.md).
    under: 'src/operations/collection-backups/tables/',
    tables: [
      'entity_types',
      'entity_templates',
      'template_fields',
      'tags',
      'entities',
      'entity_fields',
      'entity_tags',
      'maintenance_entries',
      'entity_stock',
      'checkouts',
      'attachments',
    ],
  },
  {
    // An instance restore loads every table, whatever it is, into an empty database: the COPY
    // loader clears the seed rows the migrations made before loading a table's rows.
    under: 'src/platform/database/database-copy.ts',
  },
];

/** The tables a statement writes: INSERT INTO, UPDATE ... SET, DELETE FROM, TRUNCATE, MERGE INTO. */
const WRITES = [
  /\bINSERT\s+INTO\s+("?[\w.]+"?)/gi,
  /\bUPDATE\s+(?!OF\b|ON\b)("?[\w.]+"?)(?:\s+(?:AS\s+)?(?!SET\b)\w+)?\s+SET\b/gi,
  /\bDELETE\s+FROM\s+("?[\w.]+"?)/gi,
  /\bTRUNCATE\s+(?:TABLE\s+)?("?[\w.]+"?)/gi,
  /\bMERGE\s+INTO\s+("?[\w.]+"?)/gi,
];

function writtenTables(sql) {
  const tables = new Set();
  for (const pattern of WRITES) {
    for (const match of sql.matchAll(pattern)) {
      const name = match[1].replaceAll('"', '').toLowerCase();
      tables.add(name.startsWith('public.') ? name.slice('public.'.length) : name);
    }
  }
  return tables;
}

const tableWrites = {
  meta: {
    type: 'problem',
    docs: { description: 'Only the module that owns a table writes it.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const writer = moduleOf(file);
    const relative = path.relative(ROOT, file).split(path.sep).join('/');
    if (!writer) return {};
    const exemption = EXEMPT_WRITERS.find((exempt) => relative.startsWith(exempt.under));
    const check = (node, sql) => {
      for (const table of writtenTables(sql)) {
        if (exemption && (!exemption.tables || exemption.tables.includes(table))) continue;
        const owner = table.startsWith('pgboss.') ? 'src/platform/jobs' : tableOwners().get(table);
        if (owner === writer) continue;
        context.report({
          node,
          message: owner
            ? `${table} is ${owner}'s table: only its module writes it; ask its service`
            : `${table} is no module's table: a record or a *.schema.ts must name it`,
        });
      }
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        check(node, node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' x '));
      },
    };
  },
};

/** Whether a record's file (given as its `.js` import) declares a table. */
function declaresTable(target) {
  const file = target.replace(/\.js$/, '.ts');
  return fs.existsSync(file) && /@Entity\(/.test(fs.readFileSync(file, 'utf8'));
}

/**
 * A module's records and repositories are its own: another module may import a record's type,
 * never its class, and never a repository (it asks the owner's service).
 */
const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "Another module's records and repositories stay out of reach." },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const importer = moduleOf(file);
    if (!importer) return {};
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        if (typeof source !== 'string' || !source.startsWith('.')) return;
        if (!/\.(record|repository)\.js$/.test(source)) return;
        const typeOnly =
          node.importKind === 'type' ||
          (node.specifiers.length > 0 &&
            node.specifiers.every((specifier) => specifier.importKind === 'type'));
        const target = path.resolve(path.dirname(file), source);
        const owner = moduleOf(target);
        if (owner === importer) return;
        // A base class of records (one that names no table) is shared like any other code.
        if (source.endsWith('.record.js') && !declaresTable(target)) return;
        if (source.endsWith('.record.js') && typeOnly) return;
        context.report({
          node,
          message: source.endsWith('.record.js')
            ? `${owner}'s records are imported as types only outside it; ask its service`
            : `${owner}'s repository is its own: ask its exported service`,
        });
      },
    };
  },
};

export default { rules: { 'table-writes': tableWrites, 'module-boundaries': moduleBoundaries } };
