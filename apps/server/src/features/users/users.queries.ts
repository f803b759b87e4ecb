import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Role, User } from '@siteboard/shared';
import type { DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';
import { users } from '../../db/schema/users';

const managers = alias(users, 'managers');

const userColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  code: users.code,
  designation: users.designation,
  mobileNumber: users.mobileNumber,
  companyId: users.companyId,
  companyName: companies.name,
  managerId: users.managerId,
  managerEmail: managers.email,
};

type UserRow = { [K in keyof typeof userColumns]: (typeof userColumns)[K]['_']['data'] | null };

function toUser(row: UserRow): User {
  return {
    id: row.id!,
    email: row.email!,
    role: row.role!,
    code: row.code!,
    designation: row.designation,
    mobile_number: row.mobileNumber,
    company: { id: row.companyId!, name: row.companyName! },
    company_id: row.companyId!,
    manager_id: row.managerId,
    manager_data: row.managerEmail ? { email: row.managerEmail } : null,
  };
}

function selectUsers(db: DbOrTx) {
  return db
    .select(userColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(managers, eq(managers.id, users.managerId));
}

export async function findUser(db: DbOrTx, companyId: number, userId: number): Promise<User | undefined> {
  const [row] = await selectUsers(db).where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
  return row && toUser(row);
}

/** The only place a password hash is read. */
export async function findLoginCandidate(db: DbOrTx, companyId: number, email: string) {
  const [row] = await db
    .select({ id: users.id, role: users.role, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

export async function insertUser(
  db: DbOrTx,
  values: { companyId: number; email: string; passwordHash: string; role: Role; code: string; managerId?: number | null; designation?: string | null; mobileNumber?: string | null },
) {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!;
}

/** An active user of the company with their role: for checking ids that arrive in bodies (assignees, managers). */
export async function findActiveMember(db: DbOrTx, companyId: number, userId: number) {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role, managerId: users.managerId })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
  return row;
}
