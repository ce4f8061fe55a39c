// LISTEN on PostgreSQL, for copies a process keeps in memory and drops when the database says
// their rows changed (core/account/personal.ts). A LISTEN lasts as long as its session, so it
// takes a connection of its own, outside the pool. A connection can be lost: while it is, the
// listener is not live (a notification may go unheard), and each loss and each recovery is told
// as "*" (everything may have changed), so whoever keeps copies drops them all.
import pg from "pg";

/** A channel being listened to. */
export type Listening = {
  /** False while no connection listens: notifications sent now are missed. */
  readonly live: boolean;
};

/** Waits between attempts to listen again, the last one repeated. */
const RETRY_MS = [250, 1000, 5000, 15_000];

/**
 * Listens on `channel` from a connection made with `config`, and again after any loss. Resolves
 * after the first attempt, live or not; later attempts go on until `close`.
 */
export async function listenOnPostgres(
  config: pg.ClientConfig,
  channel: string,
  onPayload: (payload: string) => void,
  onConnectionError?: (err: Error) => void,
): Promise<Listening & { close(): Promise<void> }> {
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (lostClient: pg.Client, err?: Error) => {
    if (client !== lostClient) return; // already replaced
    client = undefined;
    if (err) onConnectionError?.(err);
    lostClient.removeAllListeners("notification");
    lostClient.end().catch(() => {});
    const wasLive = live;
    live = false;
    if (wasLive) onPayload("*");
    if (!closed) retry = setTimeout(attempt, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]).unref();
  };

  async function attempt(): Promise<void> {
    const next = new pg.Client({ ...config, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = next;
    // An 'error' without a listener would end the process; a lost connection is retried instead.
    next.on("error", (err) => lost(next, err));
    next.on("end", () => lost(next));
    next.on("notification", (message) => {
      if (message.channel === channel) onPayload(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (err) {
      lost(next, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (client !== next || closed) return;
    failures = 0;
    live = true;
    onPayload("*"); // what changed while nobody listened is unknown
  }

  await attempt();
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      live = false;
      await last?.end().catch(() => {});
    },
  };
}
