import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError, openConfiguredDatabase } from '../platform';
import { deleteCompany, describeCompany, type CompanyHoldings } from './operator-company';
import { OperatorError } from './operator-password';

const USAGE = 'Name the company: npm run delete-company -- "<company name>" (then again with --yes to delete it)';

function summary(holdings: CompanyHoldings): string {
  return `${holdings.people} people, ${holdings.projects} projects, ${holdings.subtasks} subtasks, ${holdings.photos} photos, ${holdings.dailyLogs} daily logs, ${holdings.drawings} drawings`;
}

/**
 * `npm run delete-company -- "<company>"`: says what the company holds; with `--yes`, deletes it
 * and all of it for good (README, "Running in production"). Take a backup first. On the embedded
 * database the server must be stopped first (one process per data directory); its drawings' files
 * go when a server next runs.
 */
async function main(args: string[]) {
  const confirmed = args.includes('--yes');
  const [companyName] = args.filter((arg) => arg !== '--yes');
  if (!companyName?.trim()) throw new OperatorError(USAGE);
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    if (!confirmed) {
      const holdings = await describeCompany(database.db, companyName);
      console.log(`${holdings.company} holds ${summary(holdings)}.`);
      console.log(`Deleting it removes all of that for good. Take a backup first, then: npm run delete-company -- "${holdings.company}" --yes`);
      return;
    }
    const deleted = await deleteCompany(database.db, companyName);
    console.log(`Deleted ${deleted.company}: ${summary(deleted)}. Its people are signed out; its drawings' files are removed by the server.`);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof OperatorError || error instanceof DataDirLockedError;
  console.error(known ? (error as Error).message : `The company could not be deleted: ${(error as Error).message}`);
  process.exit(1);
});
