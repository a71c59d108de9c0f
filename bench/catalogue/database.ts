/**
 * The bench database: `BENCH_DATABASE_URL` when given (reused; loaded only if it holds no
 * masters yet), else a fresh `catalogue_bench_<random>` on 127.0.0.1:5432 that is kept after
 * the run so it can be re-measured (its URL is printed; drop it with DROP DATABASE).
 */
import postgres from 'postgres';

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  url: string;
  /** True when this run created it. */
  created: boolean;
}

export async function openBenchDatabase(env: Readonly<Record<string, string | undefined>>): Promise<BenchDatabase> {
  if (env.BENCH_DATABASE_URL) return { url: env.BENCH_DATABASE_URL, created: false };
  const name = `catalogue_bench_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), created: true };
}

/** Masters already present (0 when the schema is not there yet). */
export async function loadedMasters(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    // Search documents are written last (finish()), so they say the load completed.
    const [exists] = await sql<Array<{ table: string | null }>>`SELECT to_regclass('public.search_documents')::text AS table`;
    if (!exists?.table) return 0;
    const [row] = await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM search_documents WHERE kind = 0`;
    return row?.n ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
