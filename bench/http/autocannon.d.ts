// The slice of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Cycled through by every connection. */
    requests?: Array<{ method?: string; path: string; headers?: Record<string, string>; body?: string; onResponse?: (status: number, body: string) => void }>;
  }
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number; average: number };
    non2xx: number;
    errors: number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
