// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Request) => Request;
    };
    type Histogram = { p50: number; p99: number; average: number };
    type Result = { latency: Histogram; requests: Histogram; errors: number; timeouts: number; non2xx: number };
  }
  function autocannon(options: {
    url: string;
    connections: number;
    /** Seconds to run, unless `amount` (a number of requests) is given. */
    duration?: number;
    amount?: number;
    requests: autocannon.Request[];
  }): Promise<autocannon.Result>;
  export default autocannon;
}
