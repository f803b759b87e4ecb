import type { SignupInput, User } from '@siteboard/shared';
import type { Db } from '../../db/client';
import { ConflictError, ValidationError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { LoginThrottle } from '../auth/auth.throttle';
import { findUser, insertUser, takeNextUserNumber } from '../users/users.queries';
import { userCode } from '../users/users.rules';
import { findCompanyByName, insertCompany } from './companies.queries';

export const INVALID_COMPANY_PASSWORD = 'Invalid company name or password.';
export const COMPANY_NAME_TAKEN = 'A company with this name already exists.';

export async function verifyCompanyPassword(
  deps: { db: Db; throttle: LoginThrottle },
  input: { company_name: string; password: string },
  clientKey: string,
): Promise<number> {
  const accountKey = `company:${input.company_name.trim().toLowerCase()}`;
  await deps.throttle.assertAllowed(clientKey, accountKey);
  const company = await findCompanyByName(deps.db, input.company_name);
  const matches = await verifyPassword(company?.passwordHash, input.password);
  if (!company || !matches) {
    await deps.throttle.recordFailure(clientKey, accountKey);
    throw new ValidationError(INVALID_COMPANY_PASSWORD);
  }
  await deps.throttle.recordSuccess(accountKey);
  return company.id;
}

/** A new company and its first admin, together or not at all. */
export async function signup(db: Db, input: SignupInput): Promise<{ company_id: number; user: User }> {
  const [companyPasswordHash, passwordHash] = await Promise.all([hashPassword(input.company_password), hashPassword(input.password)]);
  return db.transaction(async (tx) => {
    const company = await insertCompany(tx, { name: input.company_name.trim(), passwordHash: companyPasswordHash, timezone: input.timezone ?? 'UTC' });
    if (!company) throw new ConflictError(COMPANY_NAME_TAKEN);
    const number = await takeNextUserNumber(tx, company.id);
    const { id } = await insertUser(tx, { companyId: company.id, email: input.email, passwordHash, role: 'admin', code: userCode('admin', number) });
    const user = await findUser(tx, company.id, id);
    return { company_id: company.id, user: user! };
  });
}
