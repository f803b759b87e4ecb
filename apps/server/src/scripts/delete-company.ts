import { deleteCompany, describeCompany, OPERATOR_TIMEOUTS, type CompanyHoldings } from './operator-company';
import { runOperatorCommand } from './operator-command';

function summary(holdings: CompanyHoldings): string {
  return `${holdings.people} people, ${holdings.projects} projects, ${holdings.subtasks} subtasks, ${holdings.photos} photos, ${holdings.dailyLogs} daily logs, ${holdings.drawings} drawings`;
}

/**
 * `npm run delete-company -- "<company>"`: says what the company holds; with `--yes`, deletes it
 * and all of it for good (README, "Running in production"; decision record 110). On the embedded
 * database the server must be stopped first (one process per data directory); its drawings' files
 * go when a server next runs.
 */
const args = process.argv.slice(2);
const confirmed = args.includes('--yes');
const [companyName] = args.filter((arg) => arg !== '--yes');
runOperatorCommand(
  {
    failure: 'The company could not be deleted',
    refusal: !companyName?.trim() && 'Name the company: npm run delete-company -- "<company name>" (then again with --yes to delete it)',
    timeouts: OPERATOR_TIMEOUTS,
  },
  async (db) => {
    if (!confirmed) {
      const holdings = await describeCompany(db, companyName!);
      console.log(`${holdings.company} holds ${summary(holdings)}.`);
      console.log(`Deleting it removes all of that for good. Take a backup first (npm run export-company gives the company its data), then: npm run delete-company -- "${holdings.company}" --yes`);
      return;
    }
    const deleted = await deleteCompany(db, companyName!);
    console.log(`Deleted ${deleted.company}: ${summary(deleted)}. Its people are signed out; its drawings' files are removed by the server.`);
  },
);
