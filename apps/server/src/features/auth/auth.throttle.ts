import { RateLimiterMemory } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../lib/errors';

const MAX_FAILURES = 5;
const WINDOW_SECONDS = 60;

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Counts failed sign-in and company-password attempts per client address and per account;
 * only failures count, so a crew sharing one site connection is not locked out by successes.
 * Kept in memory: each instance counts its own share.
 */
export function createLoginThrottle() {
  const byClient = new RateLimiterMemory({ keyPrefix: 'client', points: MAX_FAILURES, duration: WINDOW_SECONDS });
  const byAccount = new RateLimiterMemory({ keyPrefix: 'account', points: MAX_FAILURES, duration: WINDOW_SECONDS });

  return {
    async assertAllowed(clientKey: string, accountKey: string): Promise<void> {
      const [client, account] = await Promise.all([byClient.get(clientKey), byAccount.get(accountKey)]);
      const blocked = [client, account].filter((state) => state && state.consumedPoints >= MAX_FAILURES);
      if (blocked.length > 0) {
        const waitMs = Math.max(...blocked.map((state) => state!.msBeforeNext));
        throw new TooManyRequestsError(Math.max(1, Math.ceil(waitMs / 1000)));
      }
    },
    async recordFailure(clientKey: string, accountKey: string): Promise<void> {
      // consume() rejects once the limit is passed; the count is what matters here.
      await Promise.allSettled([byClient.consume(clientKey), byAccount.consume(accountKey)]);
    },
    async recordSuccess(accountKey: string): Promise<void> {
      await byAccount.delete(accountKey);
    },
  };
}
