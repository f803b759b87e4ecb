import type { Db } from '../db/client';
import type { AuthUser } from '../plugins/auth';

/** What every protected service receives: the database and who is asking (their company bounds every query). */
export interface ServiceContext {
  db: Db;
  user: AuthUser;
}
