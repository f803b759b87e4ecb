import type { CompanyListItem, Language, SignupInput, User } from '@siteboard/shared';
import type { Page, PageRequest } from '../../lib/lists';
import { type Db, ConflictError, NotFoundError, ValidationError } from '../../platform';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { DeviceCookie, LoginThrottle, SignInClient } from '../auth/auth.throttle';
import { findUser, insertUser, takeNextUserNumber } from '../users/users.queries';
import { userCode } from '../users/users.rules';
import { companyExists, findCompanyByName, insertCompany, listCompanies } from './companies.queries';

export const INVALID_COMPANY_PASSWORD = 'Invalid company name or password.';
export const COMPANY_NAME_TAKEN = 'A company with this name already exists.';

export async function verifyCompanyPassword(
  deps: { db: Db; throttle: LoginThrottle },
  input: { company_name: string; password: string },
  client: SignInClient,
): Promise<{ company: { id: number; name: string }; device: DeviceCookie }> {
  const accountKey = `company:${input.company_name.trim().toLowerCase()}`;
  const guess = await deps.throttle.countGuess(client, accountKey);
  const company = await findCompanyByName(deps.db, input.company_name);
  const matches = await verifyPassword(company?.passwordHash, input.password);
  if (!company || !matches) throw new ValidationError(INVALID_COMPANY_PASSWORD);
  return { company: { id: company.id, name: company.name }, device: await guess.succeeded() };
}

/**
 * A company's sign-in page (`/login?companyId=…`) asks whether that company exists, so a wrong or
 * old link says so instead of offering a form that cannot succeed. Only the id goes back: ids are
 * in every sign-in link already, names stay private (decision 011).
 */
export async function findLoginCompany(db: Db, id: number): Promise<{ company_id: number }> {
  if (!(await companyExists(db, id))) throw new NotFoundError('Company not found.');
  return { company_id: id };
}

/**
 * The company list: every company, a page at a time, where the server is set to publish it;
 * otherwise only the caller's own (the company step takes a typed name, and one tenant must not
 * learn the others' names).
 */
export async function listVisibleCompanies(db: Db, caller: { companyId: number } | undefined, page: PageRequest): Promise<Page<CompanyListItem>> {
  const { items, total } = await listCompanies(db, { companyId: caller?.companyId }, page);
  return { items: items.map((company) => ({ id: company.id, company_id: company.id, name: company.name })), total };
}

/**
 * A new company and its first admin, together or not at all; counted per client address first when
 * `throttle` is given. The company's and its admin's language is the one asked for, else the
 * browser's (`language`): the admin signed up reading it, so it is theirs, chosen.
 */
export async function signup(
  db: Db,
  input: SignupInput,
  throttle?: { throttle: LoginThrottle; clientKey: string },
  language: Language = 'en',
): Promise<{ company_id: number; user: User }> {
  await throttle?.throttle.countSignup(throttle.clientKey);
  const [companyPasswordHash, passwordHash] = await Promise.all([hashPassword(input.company_password), hashPassword(input.password)]);
  return db.transaction(async (tx) => {
    const company = await insertCompany(tx, { name: input.company_name.trim(), passwordHash: companyPasswordHash, timezone: input.timezone ?? 'UTC', defaultLanguage: input.language ?? language });
    if (!company) throw new ConflictError(COMPANY_NAME_TAKEN);
    const number = await takeNextUserNumber(tx, company.id);
    const { id } = await insertUser(tx, { companyId: company.id, email: input.email, passwordHash, role: 'admin', code: userCode('admin', number), languageChosen: true });
    const user = await findUser(tx, company.id, id);
    return { company_id: company.id, user: user! };
  });
}
