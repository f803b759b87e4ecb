import path from 'node:path';
import { exportCompany, OPERATOR_TIMEOUTS } from './operator-company';
import { operatorFile, runOperatorCommand } from './operator-command';

/**
 * `npm run export-company -- "<company>" <file.zip>`: everything of one company in one archive,
 * CSV files and images (README, "Running in production"; decision record 110), for a company that
 * leaves or asks for its data. On the embedded database with its server running, it reads a copy
 * the server gives of it now (one process per data directory; the server goes on serving).
 */
const [companyName, target] = process.argv.slice(2);
runOperatorCommand(
  {
    failure: 'The company could not be exported',
    refusal: (!companyName?.trim() || !target) && 'Name the company and the file to write: npm run export-company -- "<company name>" <file.zip>',
    writes: target,
    timeouts: OPERATOR_TIMEOUTS,
    readsOnly: true,
  },
  async (db, config) => {
    const file = operatorFile(target!);
    const done = await exportCompany(db, companyName!, file, path.join(config.dataDir, 'sheets'));
    console.log(`Exported ${done.company} into ${file}: ${done.tables} tables, ${done.rows} rows, ${done.photos} photos, ${done.drawings} drawings, ${(done.bytes / 1024 / 1024).toFixed(1)} MB.`);
  },
);
