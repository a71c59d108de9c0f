/**
 * What finish()'s steps run on: the pool (each step its own transactions), or the one
 * transaction that publishes an import (writer/index.ts), where a step's own transaction
 * becomes a savepoint, so nothing it writes is seen before the whole import is.
 */
import type { Sql, TransactionSql } from 'postgres';

export type Db = Sql | TransactionSql;

/** True inside a transaction: a step writes the live tables in place, seen at its commit. */
export function inTransaction(db: Db): db is TransactionSql {
  return 'savepoint' in db;
}

/** `run` in a transaction of its own on a pool, or in a savepoint of the transaction `db` is. */
export function within<T>(db: Db, run: (tx: TransactionSql) => Promise<T>): Promise<T> {
  if ('savepoint' in db) return db.savepoint(run) as Promise<T>;
  return db.begin(run) as Promise<T>;
}
