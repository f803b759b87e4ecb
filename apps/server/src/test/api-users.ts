import { expect } from 'vitest';
import type { User } from '@siteboard/shared';
import type { TestContext } from './build-app';
import { DEFAULT_PASSWORD, createCompany, injectAs, loginAs, unique, type TestCompany, type TestUser } from './factories';

/** People made through the users API, as the admin screens make them. */

export interface Admin {
  company: TestCompany;
  access: string;
}

/** A new company, its admin signed in. */
export async function signedInAdmin(ctx: TestContext): Promise<Admin> {
  const company = await createCompany(ctx.app.db);
  const { access } = await loginAs(ctx.app, company.admin);
  return { company, access };
}

export function call(ctx: TestContext, access: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return injectAs(ctx.app, access, { method, url, payload });
}

export function userPayload(overrides: Record<string, unknown> = {}) {
  return { email: `${unique('person')}@example.test`, password: DEFAULT_PASSWORD, role: 'manager', designation: null, mobile_number: null, ...overrides };
}

/** Creates a user through the API, as the admin screen does, and answers them ready to sign in. */
export async function createThroughApi(ctx: TestContext, admin: Admin, overrides: Record<string, unknown> = {}): Promise<TestUser & { user: User }> {
  const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload(overrides));
  expect(response.statusCode, response.body).toBe(201);
  const user: User = response.json();
  return { id: user.id, email: user.email, role: user.role, companyId: user.company_id, password: DEFAULT_PASSWORD, user };
}

/** A new company's admin, signed in, with a manager and a team member in that manager's team, made through the API. */
export async function adminWithCrew(ctx: TestContext) {
  const admin = await signedInAdmin(ctx);
  const manager = await createThroughApi(ctx, admin);
  const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
  return { admin, manager, member };
}
