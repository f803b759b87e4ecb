import type { CompanyPasswordInput, CompanySettings, updateCompanySettingsInput } from '@siteboard/shared';
import type { z } from 'zod';
import { type ServiceContext, isUniqueViolation, ConflictError, NotFoundError } from '../../platform';
import { COMPANY_NAME_TAKEN } from './companies.service';
import { hashPassword } from '../../lib/passwords';
import { COMPANY_NAME_INDEX, findCompanySettings, setCompanyPasswordHash, updateCompanySettings } from './company-settings.queries';

type UpdateCompanySettings = z.output<typeof updateCompanySettingsInput>;

const COMPANY_NOT_FOUND = 'Company not found.';

export async function getCompanySettings(ctx: ServiceContext): Promise<CompanySettings> {
  const company = await findCompanySettings(ctx.db, ctx.user.companyId);
  if (!company) throw new NotFoundError(COMPANY_NOT_FOUND);
  return company;
}

/** Renames the caller's company or changes its time zone; names stay unique whatever their case. */
export async function updateCompanySettingsFor(ctx: ServiceContext, input: UpdateCompanySettings): Promise<CompanySettings> {
  try {
    const company = await updateCompanySettings(ctx.db, ctx.user.companyId, { name: input.name, timezone: input.timezone, defaultLanguage: input.default_language });
    if (!company) throw new NotFoundError(COMPANY_NOT_FOUND);
    return company;
  } catch (error) {
    if (isUniqueViolation(error, COMPANY_NAME_INDEX)) throw new ConflictError(COMPANY_NAME_TAKEN);
    throw error;
  }
}

/**
 * A new company password: from now on the company step of the sign-in page asks for it (the old one
 * no longer works). Nobody is signed out: it guards the way to the company's sign-in page, not an
 * account; an admin changes it when someone who knew it has left.
 */
export async function changeCompanyPassword(ctx: ServiceContext, input: CompanyPasswordInput): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  if (!(await setCompanyPasswordHash(ctx.db, ctx.user.companyId, passwordHash))) throw new NotFoundError(COMPANY_NOT_FOUND);
}
