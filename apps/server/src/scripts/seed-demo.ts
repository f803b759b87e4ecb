import { ConfigError, loadConfig } from '../config';
import { openConfiguredDatabase, DataDirLockedError } from '../platform';
import { DEMO_COMPANY_NAME, DEMO_COMPANY_PASSWORD, DEMO_PASSWORD, seedDemo, type DemoSeed } from './demo-data';

/** `npm run seed:demo`: fills the configured database with a demo company and prints how to sign in. */
async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const seed = await seedDemo(database.db);
    console.log(describeSeed(seed, `http://localhost:${config.PORT}`));
  } finally {
    await database.close();
  }
}

function describeSeed(seed: DemoSeed, url: string): string {
  const roleWidth = Math.max(...seed.accounts.map((account) => account.role.length));
  const emailWidth = Math.max(...seed.accounts.map((account) => account.email.length));
  const accountLines = seed.accounts.map((account) => `    ${account.role.padEnd(roleWidth)}  ${account.email.padEnd(emailWidth)}  ${DEMO_PASSWORD}  ${account.full_name ?? ''}`.trimEnd());
  return [
    seed.created ? 'Demo company created.' : 'The demo company already exists; nothing was changed.',
    '',
    `  Company name:      ${DEMO_COMPANY_NAME}`,
    `  Company password:  ${DEMO_COMPANY_PASSWORD}`,
    '',
    '  Accounts (role, e-mail, password as seeded, name):',
    ...accountLines,
    '',
    `Start SiteBoard (npm start) and open ${url}`,
  ].join('\n');
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
