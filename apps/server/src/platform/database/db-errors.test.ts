import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './db-errors';

describe('isUniqueViolation', () => {
  const violation = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'users_company_email_active_key' });

  it('finds the violation on the error or wrapped in its cause (as Drizzle wraps driver errors)', () => {
    expect(isUniqueViolation(violation, 'users_company_email_active_key')).toBe(true);
    expect(isUniqueViolation(new Error('Failed query', { cause: violation }), 'users_company_email_active_key')).toBe(true);
  });

  it('ignores another constraint, another error code and things that are not errors', () => {
    expect(isUniqueViolation(violation, 'companies_name_lower_key')).toBe(false);
    expect(isUniqueViolation(Object.assign(new Error('fk'), { code: '23503', constraint: 'users_company_email_active_key' }), 'users_company_email_active_key')).toBe(false);
    expect(isUniqueViolation(undefined, 'users_company_email_active_key')).toBe(false);
    expect(isUniqueViolation('23505', 'users_company_email_active_key')).toBe(false);
  });
});
