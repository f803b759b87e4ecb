import { zodResolver } from '@hookform/resolvers/zod';
import { appraisalQuery } from '@siteboard/shared';

/** The appraisal report's filter form checks its choice as the server does (admin-appraisal-report.tsx loads this on first use). */
export const appraisalResolver = zodResolver(appraisalQuery);
