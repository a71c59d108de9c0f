/** Zipf–Mandelbrot rank in [0, n): P(rank = k) ∝ 1/(k + q), drawn by inverting its continuous CDF. */
export function zipfRank(u: number, n: number, q: number): number {
  const rank = Math.floor(q * ((n + q) / q) ** u - q);
  return Math.min(n - 1, Math.max(0, rank));
}
