/** How many rows of each kind a generated catalogue holds. */
export interface Sizes {
  artists: number;
  labels: number;
  festivals: number;
  masters: number;
  /** Artists with a Bandcamp series (≤ artists). */
  bandcampArtists: number;
}

/** The demo catalogue `npm start` loads: small enough to build in well under a second. */
export const DEMO_SIZES: Readonly<Sizes> = Object.freeze({
  artists: 1_500,
  labels: 250,
  festivals: 30,
  masters: 6_000,
  bandcampArtists: 500,
});

/** The benchmark catalogue: stream it (`streamCatalogue`), do not materialize it. */
export const SCALE_SIZES: Readonly<Sizes> = Object.freeze({
  artists: 300_000,
  labels: 50_000,
  festivals: 2_000,
  masters: 1_000_000,
  bandcampArtists: 100_000,
});

export const DEFAULT_SEED = 20260629;
/** A Monday: weekly observations end on it. */
export const DEFAULT_AS_OF = '2026-06-29';

export function resolveSizes(scale: Partial<Sizes> | undefined): Sizes {
  const sizes = { ...DEMO_SIZES, ...scale };
  for (const [key, value] of Object.entries(sizes)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`sizes.${key} must be a positive integer, got ${value}`);
  }
  sizes.bandcampArtists = Math.min(sizes.bandcampArtists, sizes.artists);
  if (sizes.masters > 400_000_000) throw new RangeError('sizes.masters too large: release ids would exceed 2,000,000,000');
  return sizes;
}
