import { z } from 'zod';

export const ROLES = ['admin', 'manager', 'team_member'] as const;
export const roleSchema = z.enum(ROLES, { error: 'Select a role.' });
export type Role = z.infer<typeof roleSchema>;

export const companyRef = z.object({ id: z.number(), name: z.string() });

export const userSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: roleSchema,
  code: z.string(),
  designation: z.string().nullable(),
  mobile_number: z.string().nullable(),
  company: companyRef,
  company_id: z.number(),
  manager_id: z.number().nullable(),
  manager_data: z.object({ email: z.string() }).nullable(),
});
export type User = z.infer<typeof userSchema>;
