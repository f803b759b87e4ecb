import { runOperatorCommand } from './operator-command';
import { setTemporaryPassword } from './operator-password';

/**
 * `npm run set-password -- "<company>" <e-mail>`: prints a temporary password for that account,
 * which must be changed at its next sign-in (README, "Running in production"). On the embedded
 * database the server must be stopped first (one process per data directory).
 */
const [companyName, email] = process.argv.slice(2);
runOperatorCommand(
  { failure: 'The password could not be set', refusal: (!companyName || !email) && 'Name the company and the e-mail: npm run set-password -- "<company name>" <e-mail>' },
  async (db) => {
    const done = await setTemporaryPassword(db, companyName!, email!);
    console.log(`Temporary password for ${done.email} of ${done.company}: ${done.password}`);
    console.log('They sign in with it and must choose their own at once; their other sessions and calendar feed have ended.');
  },
);
