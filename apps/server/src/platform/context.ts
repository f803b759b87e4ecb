import type { Language, Role } from '@siteboard/shared';
import type { Db } from './database/client';

/** Who is asking: a signed-in, active user of one company, as their access token and the database agree. */
export interface AuthUser {
  id: number;
  companyId: number;
  role: Role;
  email: string;
  /** What their errors and texts are written in. */
  language: Language;
  /** An admin set their password: until they choose their own, only the routes that allow it answer. */
  mustChangePassword: boolean;
}

/**
 * What every protected service receives: the database and who is asking (their company bounds
 * every query). Built once per request, when the request is authenticated (`request.ctx`).
 */
export interface ServiceContext {
  db: Db;
  user: AuthUser;
  /**
   * When the person did what this request writes, when their device said so plausibly (a write
   * sent later by the offline queue, X-Done-At, decision record 109); undefined when it was done
   * as it arrived. The record of work keeps it beside the arrival.
   */
  doneAt?: Date;
}
