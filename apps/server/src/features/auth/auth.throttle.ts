import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
export const SIGN_IN_LIMITS = { clientOnAccount: 5, account: 20, client: 50, knownDevice: 5 } as const;

/** How long a device stays known to an account after its last sign-in there. */
export const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/** Who is guessing: their address, and the cookies they sent (a device cookie among them, maybe). */
export interface SignInClient {
  address: string;
  cookies: Record<string, string | undefined>;
}

/** A device cookie to set on a successful attempt. */
export interface DeviceCookie {
  name: string;
  value: string;
}

/** Sign-ups from one address: each creates a company and costs two password hashes. */
export const SIGNUP_LIMIT = { points: 5, windowSeconds: 10 * 60 } as const;

export type ThrottleStore = { kind: 'memory' } | { kind: 'database'; db: Db };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

function limiter(store: ThrottleStore, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  return store.kind === 'database'
    ? // Expired counters are swept once per server (auth.plugin.ts), not by a timer per limiter that
      // outlives the app it was made for.
      new RateLimiterDrizzle({ storeClient: store.db, schema: rateLimits, keyPrefix, points, duration, clearExpiredByTimeout: false })
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
export function createLoginThrottle(store: ThrottleStore, secret: string) {
  const devices = deviceCookies(secret);
  const knownDevice = limiter(store, 'sign-in:device', SIGN_IN_LIMITS.knownDevice, WINDOW_SECONDS);
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
    /**
     * Counts a guess at an account (a sign-in, a company step) with device cookies (OWASP "slow
     * down online guessing attacks with device cookies"): a client holding a cookie this server
     * signed for this account is counted only by its own failures, so a stranger's storm on the
     * account never locks its owner out on a known device; any other attempt is counted per
     * address and account, per account and per address. Answers what to do on success: the
     * counters start again, and the answer sets the device cookie (a new one, or the same again).
     */
    async countGuess(client: SignInClient, accountKey: string): Promise<{ succeeded(): Promise<DeviceCookie> }> {
      const name = devices.nameFor(accountKey);
      const presented = client.cookies[name];
      const device = presented === undefined ? undefined : devices.verify(accountKey, presented);
      if (device) {
        const state = await count(knownDevice, device);
        if (state.consumedPoints > SIGN_IN_LIMITS.knownDevice) throw new TooManyRequestsError(secondsUntilFree([state]));
      } else {
        await this.countAttempt(client.address, accountKey);
      }
      return {
        succeeded: async () => {
          if (device) await Promise.all([knownDevice.delete(device), account.delete(accountKey)]);
          else await this.recordSuccess(client.address, accountKey);
          return { name, value: device ? presented! : devices.issue(accountKey) };
        },
      };
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

/**
 * Device cookies: `<id>.<mac>`, the mac binding the random id to one account, under a key derived
 * from the server's secret. The cookie's name is a mac of the account too, so a browser may be a
 * known device of several accounts and no name shows an e-mail address.
 */
function deviceCookies(secret: string) {
  const key = createHmac('sha256', secret).update('siteboard device cookies').digest();
  const mac = (data: string) => createHmac('sha256', key).update(data).digest('base64url');
  return {
    nameFor: (accountKey: string) => `siteboard_device_${mac(`name|${accountKey}`).slice(0, 16)}`,
    issue(accountKey: string): string {
      const id = randomBytes(16).toString('base64url');
      return `${id}.${mac(`${id}|${accountKey}`)}`;
    },
    /** The device's id when the cookie was signed for this account, else undefined. */
    verify(accountKey: string, value: string): string | undefined {
      const [id, signature, ...rest] = value.split('.');
      if (!id || !signature || rest.length > 0) return undefined;
      const expected = Buffer.from(mac(`${id}|${accountKey}`));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? `${accountKey}|${id}` : undefined;
    },
  };
}

/** Sets a device cookie on the answer: the browser's script never reads it, and it goes only to the API. */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, cookie: DeviceCookie) {
  reply.setCookie(cookie.name, cookie.value, { httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: '/api/', maxAge: DEVICE_COOKIE_SECONDS });
}
