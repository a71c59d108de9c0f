/**
 * Fresh tables swapped in for live ones (issue 13): a table loaded without indexes gets the
 * live table's primary key, indexes and unique constraints built after the load (the cheap
 * order: one sort per index instead of an insert per row into each), then replaces the live
 * one by renames in one short transaction; readers keep reading the old table until it
 * commits. Used for first imports (bulk-load.ts) and for derived tables rebuilt whole.
 */
import type { Sql, TransactionSql } from 'postgres';
import { inLanes } from '../lanes.js';

// work_mem: the slugs' window and the link tables' sorts of a first import stay in memory (at
// 1 M records the slugs' three sorts each went to disk with the default 4 MB).
const LOAD_SETTINGS = ['SET LOCAL jit = off', "SET LOCAL maintenance_work_mem = '256MB'", "SET LOCAL work_mem = '64MB'", 'SET LOCAL synchronous_commit = off'];

/** Settings of the transactions that load and index (JIT only slows these plans). */
export async function setLoad(tx: TransactionSql): Promise<void> {
  for (const setting of LOAD_SETTINGS) await tx.unsafe(setting);
}

interface IndexDefinition {
  name: string;
  definition: string;
  constraint: string | null;
  constraint_type: string | null;
  constraint_definition: string | null;
}

/** The live table's indexes and unique constraints (not the primary key). */
async function indexesOf(sql: Sql | TransactionSql, table: string): Promise<IndexDefinition[]> {
  return sql<IndexDefinition[]>`
    SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, c.conname AS constraint, c.contype::text AS constraint_type,
           pg_get_constraintdef(c.oid) AS constraint_definition
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.conrelid = x.indrelid
    WHERE x.indrelid = ${table}::regclass AND NOT x.indisprimary
    ORDER BY i.relname`;
}

/** The statements that build the live table's indexes on `target` under `import_`-prefixed names. */
export async function indexStatementsLike(sql: Sql | TransactionSql, table: string, target: string): Promise<string[]> {
  return (await indexesOf(sql, table)).map((index) => {
    if (index.constraint && index.constraint_type === 'u')
      return `ALTER TABLE ${target} ADD CONSTRAINT import_${index.constraint} ${index.constraint_definition}`;
    return index.definition.replace(/^CREATE (UNIQUE )?INDEX (\S+) ON (\S+) /, (_all, unique: string | undefined) => {
      return `CREATE ${unique ?? ''}INDEX import_${index.name} ON ${target} `;
    });
  });
}

/** The primary key (named `${target}_pkey`) and the indexes of the live table, for `target`. */
export async function keyAndIndexStatementsLike(sql: Sql | TransactionSql, table: string, target: string): Promise<string[]> {
  const [primary] = await sql<Array<{ definition: string }>>`
    SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'p'`;
  return [
    ...(primary ? [`ALTER TABLE ${target} ADD CONSTRAINT ${target}_pkey ${primary.definition}`] : []),
    ...(await indexStatementsLike(sql, table, target)),
  ];
}

/** The live table's indexes, built on `target` under `import_`-prefixed names. */
export async function buildIndexesLike(sql: Sql, table: string, target: string): Promise<void> {
  for (const statement of await indexStatementsLike(sql, table, target)) {
    await sql.begin(async (tx) => {
      await setLoad(tx);
      await tx.unsafe(statement);
    });
  }
}

/**
 * The primary key and indexes of several fresh tables, built by `lanes` sessions side by side:
 * PostgreSQL 15 builds a GIN index on one core, so two sessions keep both cores busy (issue 13).
 * `before` are longer runs of statements, each run in order by one lane (a fresh table filled,
 * then indexed), taken first; then GIN indexes, the longest single builds; so the lanes finish
 * close together.
 */
export async function buildKeysAndIndexesLike(
  sql: Sql,
  pairs: ReadonlyArray<{ table: string; target: string }>,
  lanes: number,
  before: ReadonlyArray<readonly string[]> = [],
): Promise<void> {
  const statements: string[] = [];
  for (const { table, target } of pairs) statements.push(...(await keyAndIndexStatementsLike(sql, table, target)));
  const isGin = (statement: string) => / USING gin /.test(statement);
  const queue: Array<readonly string[]> = [...before, ...statements.filter(isGin).map((s) => [s]), ...statements.filter((s) => !isGin(s)).map((s) => [s])];
  await inLanes(queue, lanes, async (run) => {
    for (const statement of run) {
      await sql.begin(async (tx) => {
        await setLoad(tx);
        await tx.unsafe(statement);
      });
    }
  });
}

/**
 * Replaces the live table with `target` (indexed by buildIndexesLike, primary key named
 * `${target}_pkey`) under the live names, and puts back the foreign keys that pointed at it.
 */
export async function swapIn(tx: TransactionSql, table: string, target: string): Promise<void> {
  const indexes = await indexesOf(tx, table);
  const [primary] = await tx<Array<{ name: string }>>`
    SELECT conname AS name FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'p'`;
  // Foreign keys pointing here, and the table's own (LIKE copies neither).
  const references = await tx<Array<{ owner: string; name: string; definition: string }>>`
    SELECT conrelid::regclass::text AS owner, conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE (confrelid = ${table}::regclass OR conrelid = ${table}::regclass) AND contype = 'f'`;
  await tx.unsafe(`DROP TABLE ${table} CASCADE`);
  await tx.unsafe(`ALTER TABLE ${target} RENAME TO ${table}`);
  if (primary) await tx.unsafe(`ALTER TABLE ${table} RENAME CONSTRAINT ${target}_pkey TO ${primary.name}`);
  for (const index of indexes) {
    if (index.constraint && index.constraint_type === 'u') {
      await tx.unsafe(`ALTER TABLE ${table} RENAME CONSTRAINT import_${index.constraint} TO ${index.constraint}`);
    } else await tx.unsafe(`ALTER INDEX import_${index.name} RENAME TO ${index.name}`);
  }
  // Checked again as they are added: a row pointing at an id the new table lacks fails the swap.
  for (const reference of references) {
    await tx.unsafe(`ALTER TABLE ${reference.owner} ADD CONSTRAINT ${reference.name} ${reference.definition}`);
  }
}

/** Adds `target`'s primary key as the live table has it, named `${target}_pkey`. */
export async function addPrimaryKeyLike(sql: Sql, table: string, target: string): Promise<void> {
  const [primary] = await sql<Array<{ definition: string }>>`
    SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'p'`;
  if (!primary) return;
  await sql.begin(async (tx) => {
    await setLoad(tx);
    await tx.unsafe(`ALTER TABLE ${target} ADD CONSTRAINT ${target}_pkey ${primary.definition}`);
  });
}
