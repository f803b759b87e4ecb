import crypto from 'node:crypto';
import type { Db, DbOrTx } from '../platform';
import { findResetAccount } from '../features/auth/invitations.queries';
import { findCompanyByName } from '../features/companies/companies.queries';
import { replacePassword } from '../features/users/users.queries';
import { hashPassword } from '../lib/passwords';

export class OperatorError extends Error {}

/** The company an operator names (its capitals aside), or they are told there is none. */
export async function companyNamed(db: DbOrTx, name: string) {
  const company = await findCompanyByName(db, name);
  if (!company) throw new OperatorError(`No company is named "${name.trim()}" (the name is matched whatever its capitals).`);
  return company;
}

/**
 * An operator's way back in for a person locked out (the only admin, with no mail set up): a new
 * password for the account of that e-mail in that company, printed once, to be changed at the next
 * sign-in. Their sessions and calendar feed end, as with every password change (replacePassword).
 */
export async function setTemporaryPassword(db: Db, companyName: string, email: string): Promise<{ company: string; email: string; password: string }> {
  const company = await companyNamed(db, companyName);
  const account = await findResetAccount(db, company.id, email.trim());
  if (!account) throw new OperatorError(`${company.name} has no active account with the e-mail ${email.trim()}.`);
  // 15 characters of an alphabet without look-alikes (no 0/O, 1/l/I): read out over a phone.
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const password = Array.from({ length: 15 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
  const passwordHash = await hashPassword(password);
  // The password, the end of its sessions and of its calendar feed: all or nothing.
  await db.transaction((tx) => replacePassword(tx, company.id, account.id, { passwordHash, mustChange: true }));
  return { company: company.name, email: account.email, password };
}
