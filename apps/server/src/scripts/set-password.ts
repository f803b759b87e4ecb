import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError, openConfiguredDatabase } from '../platform';
import { OperatorError, setTemporaryPassword } from './operator-password';

const USAGE = 'Name the company and the e-mail: npm run set-password -- "<company name>" <e-mail>';

/**
 * `npm run set-password -- "<company>" <e-mail>`: prints a temporary password for that account,
 * which must be changed at its next sign-in (README, "Running in production"). On the embedded
 * database the server must be stopped first (one process per data directory).
 */
async function main([companyName, email]: string[]) {
  if (!companyName || !email) throw new OperatorError(USAGE);
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const done = await setTemporaryPassword(database.db, companyName, email);
    console.log(`Temporary password for ${done.email} of ${done.company}: ${done.password}`);
    console.log('They sign in with it and must choose their own at once; their other sessions and calendar feed have ended.');
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof OperatorError || error instanceof DataDirLockedError;
  console.error(known ? (error as Error).message : `The password could not be set: ${(error as Error).message}`);
  process.exit(1);
});
