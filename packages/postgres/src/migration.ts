/** One forward-only migration: what scripts/embed-migrations.ts writes and migrate() applies. */
export interface Migration {
  /** File name without `.sql`, e.g. `0002_catalogue`; applied in id order. */
  id: string;
  sql: string;
}
