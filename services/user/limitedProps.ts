import type { Db } from "@services/shared/db";
import type { RateLimiter } from "@services/shared/rateLimit";

/** What a public use case counted against its caller's address takes: the database, the limiter, the address. */
export interface LimitedProps {
  db: Db;
  limiter: RateLimiter;
  /** the caller's address, the key the limiter counts */
  ip: string;
}
