import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { type Db, TooManyRequestsError } from '../../platform';
import { rateLimits } from '../../schema/auth';

const WINDOW_SECONDS = 60;

/**
 * Attempts a minute. One client on one account (or company) gets a few tries; the account itself,
 * from everywhere, more, so that one stranger's guesses do not lock its owner out; one address,
 * for every account behind it, more again, so that a crew behind one site router is not locked
 * out by one member's typos.
 */
export const SIGN_IN_LIMITS = { clientOnAccount: 5, account: 20, client: 50 } as const;

/** Sign-ups from one address: each creates a company and costs two password hashes. */
export const SIGNUP_LIMIT = { points: 5, windowSeconds: 10 * 60 } as const;

export type ThrottleStore = { kind: 'memory' } | { kind: 'database'; db: Db };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

function limiter(store: ThrottleStore, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  return store.kind === 'database'
    ? new RateLimiterDrizzle({ storeClient: store.db, schema: rateLimits, keyPrefix, points, duration })
    : new RateLimiterMemory({ keyPrefix, points, duration });
}

/** Consumes one point and answers the state, whether the limit was passed or not (a refusal is a state too). */
async function count(limit: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limit.consume(key);
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal;
    throw refusal;
  }
}

/**
 * Sign-in and company-step attempts, per client address and account (`companyId:email`, or the
 * company name for the company step). Every attempt is counted before it is checked, in one
 * atomic increment per counter, so that concurrent guesses cannot all slip past a read-then-write:
 * with a limit of 5, the sixth of 40 parallel guesses is refused whatever the timing. A success
 * gives its points back and clears the account's counters. With `database`, the counters live in
 * PostgreSQL and every instance shares them.
 */
export function createLoginThrottle(store: ThrottleStore) {
  const clientOnAccount = limiter(store, 'sign-in:client-account', SIGN_IN_LIMITS.clientOnAccount, WINDOW_SECONDS);
  const account = limiter(store, 'sign-in:account', SIGN_IN_LIMITS.account, WINDOW_SECONDS);
  const client = limiter(store, 'sign-in:client', SIGN_IN_LIMITS.client, WINDOW_SECONDS);
  const signups = limiter(store, 'sign-up:client', SIGNUP_LIMIT.points, SIGNUP_LIMIT.windowSeconds);
  const pair = (clientKey: string, accountKey: string) => `${accountKey}|${clientKey}`;

  return {
    /** Counts this attempt; refuses it (429) if any counter has passed its limit. */
    async countAttempt(clientKey: string, accountKey: string): Promise<void> {
      const states = await Promise.all([count(clientOnAccount, pair(clientKey, accountKey)), count(account, accountKey), count(client, clientKey)]);
      const limits = [SIGN_IN_LIMITS.clientOnAccount, SIGN_IN_LIMITS.account, SIGN_IN_LIMITS.client];
      const passed = states.filter((state, index) => state.consumedPoints > limits[index]!);
      if (passed.length > 0) throw new TooManyRequestsError(secondsUntilFree(passed));
    },
    /** A correct attempt: the account's counters start again, and the address gets its point back. */
    async recordSuccess(clientKey: string, accountKey: string): Promise<void> {
      await Promise.all([clientOnAccount.delete(pair(clientKey, accountKey)), account.delete(accountKey), client.reward(clientKey, 1)]);
    },
    /** Counts a sign-up from this address; refuses it (429) past the limit. */
    async countSignup(clientKey: string): Promise<void> {
      const state = await count(signups, clientKey);
      if (state.consumedPoints > SIGNUP_LIMIT.points) throw new TooManyRequestsError(secondsUntilFree([state]));
    },
  };
}

function secondsUntilFree(states: RateLimiterRes[]): number {
  return Math.max(1, Math.ceil(Math.max(...states.map((state) => state.msBeforeNext)) / 1000));
}
