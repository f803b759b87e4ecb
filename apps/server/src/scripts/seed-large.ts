import { ConfigError, loadConfig } from '../config';
import { openConfiguredDatabase, DataDirLockedError } from '../platform';
import { LARGE_COMPANY_PASSWORD, LARGE_PASSWORD, seedLarge } from './large-data';

/** `npm run seed:large`: two large companies in the configured database, for benchmarks and load checks. */
async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const started = performance.now();
    const companies = await seedLarge(database.db);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      [
        `Large data on ${database.kind} in ${seconds} s (each company: 2,000 users, 1,000 projects, 10,000 major tasks, 100,000 subtasks, 200,000 notifications).`,
        ...companies.map((company) => `  ${company.name}${company.created ? '' : ' (already there, unchanged)'}: ${company.admin}, ${company.manager}, ${company.member}`),
        `  Company password: ${LARGE_COMPANY_PASSWORD}; every account's password: ${LARGE_PASSWORD}`,
      ].join('\n'),
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
