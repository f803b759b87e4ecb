/**
 * True when `error`, or an error it wraps (Drizzle puts the driver's error in `cause`), is
 * PostgreSQL's unique violation (SQLSTATE 23505) on the named constraint or unique index.
 * node-postgres and PGlite both report `code` and `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, constraint: violated, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === '23505') return violated === constraint;
    current = cause;
  }
  return false;
}

/**
 * True when `error`, or an error it wraps, is PostgreSQL giving up a wait for a lock after the
 * transaction's `lock_timeout` (SQLSTATE 55P03).
 */
export function isLockTimeout(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === '55P03') return true;
    current = cause;
  }
  return false;
}
