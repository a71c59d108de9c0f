/** The catalogue sizes a bench run loads: SCALE_SIZES times BENCH_SCALE (1 = the full goal scale). */
import { SCALE_SIZES, type Sizes } from '@catalogue/importer';

export function benchScale(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.BENCH_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) throw new Error(`BENCH_SCALE must be a number in (0, 1], got ${raw}`);
  return scale;
}

export function scaledSizes(scale: number): Sizes {
  const of = (value: number) => Math.max(1, Math.round(value * scale));
  return {
    artists: of(SCALE_SIZES.artists),
    labels: of(SCALE_SIZES.labels),
    festivals: of(SCALE_SIZES.festivals),
    masters: of(SCALE_SIZES.masters),
    bandcampArtists: of(SCALE_SIZES.bandcampArtists),
  };
}
