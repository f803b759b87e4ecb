import { z } from 'zod';

export const companyListItem = z.object({ id: z.number(), company_id: z.number(), name: z.string() });
export type CompanyListItem = z.infer<typeof companyListItem>;
