import type { InjectOptions } from 'fastify';
import type { Language, Role, TokenPair } from '@siteboard/shared';
import type { App } from '../app';
import type { Db } from '../platform';
import { hashPassword } from '../lib/passwords';
import { signup } from '../features/companies/companies.service';
import { insertUser, takeNextUserNumber, updateOwnSettings } from '../features/users/users.queries';
import { userCode } from '../features/users/users.rules';

let sequence = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

export const DEFAULT_PASSWORD = 'correct horse battery';

export interface TestUser {
  id: number;
  email: string;
  role: Role;
  companyId: number;
  password: string;
}

export interface TestCompany {
  id: number;
  name: string;
  password: string;
  admin: TestUser;
}

export async function createCompany(db: Db, overrides: { name?: string; password?: string; timezone?: string; language?: Language } = {}): Promise<TestCompany> {
  const name = overrides.name ?? unique('Company');
  const password = overrides.password ?? 'company password';
  const email = `${unique('admin')}@example.test`;
  const result = await signup(db, { company_name: name, company_password: password, email, password: DEFAULT_PASSWORD, timezone: overrides.timezone, language: overrides.language });
  return { id: result.company_id, name, password, admin: { id: result.user.id, email, role: 'admin', companyId: result.company_id, password: DEFAULT_PASSWORD } };
}

// One real argon2id hash of the default password, shared by the users made here: a hash costs tens
// of milliseconds of CPU, and the suites make thousands of users. Sign-in still verifies it for real.
let defaultPasswordHash: Promise<string> | undefined;

export async function createUser(
  db: Db,
  companyId: number,
  role: Role,
  overrides: { email?: string; fullName?: string; managerId?: number; language?: Language; timezone?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? `${unique(role)}@example.test`;
  const passwordHash = await (defaultPasswordHash ??= hashPassword(DEFAULT_PASSWORD));
  const number = await takeNextUserNumber(db, companyId);
  const { id } = await insertUser(db, { companyId, email, fullName: overrides.fullName ?? null, passwordHash, role, code: userCode(role, number), managerId: overrides.managerId ?? null });
  if (overrides.language || overrides.timezone) await updateOwnSettings(db, companyId, id, { language: overrides.language, timezone: overrides.timezone });
  return { id, email, role, companyId, password: DEFAULT_PASSWORD };
}

let clientNumber = 0;
/** A distinct client address per call, so the per-client login throttle only trips where a test means it to. */
export const freshClientAddress = () => `10.0.${Math.floor(++clientNumber / 250)}.${(clientNumber % 250) + 1}`;

export async function loginAs(app: App, user: TestUser): Promise<TokenPair> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/token/',
    remoteAddress: freshClientAddress(),
    payload: { email: user.email, password: user.password, role: user.role, company_id: user.companyId },
  });
  if (response.statusCode !== 200) throw new Error(`login failed for ${user.email}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** An authenticated request as the given access token. */
export function injectAs(app: App, access: string, options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${access}` } });
}

/** A new team member as the spec's user answers show them (a users list row; the profile adds its own fields). */
export function memberAnswer(member: { id: number; email: string }, code: string, company: { id: number; name: string }, manager: { id: number; email: string }) {
  return {
    id: member.id,
    email: member.email,
    role: 'team_member',
    code,
    designation: null,
    mobile_number: null,
    company: { id: company.id, name: company.name },
    company_id: company.id,
    manager_id: manager.id,
    manager_data: { email: manager.email },
    full_name: null,
    must_change_password: false,
  };
}
