/**
 * The boundary lint (eslint.config.js, decision records 008 and 043) must catch a deliberate
 * crossing however its path is spelt, including the ways around an import rule, and let the
 * allowed imports through. Each probe is linted as if it were a file at that path.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.dirname(fileURLToPath(import.meta.url)) });
const BOUNDARY_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-syntax', '@eslint-community/eslint-comments/no-restricted-disable', '@eslint-community/eslint-comments/no-unlimited-disable']);

async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = imported;\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId !== null && BOUNDARY_RULES.has(message.ruleId)).map((message) => message.message);
}

const webFile = 'apps/web/src/features/tasks/components/probe.tsx';
const serverFile = 'apps/server/src/features/tasks/probe.ts';

describe('feature boundaries', () => {
  it.each([
    ['a web feature importing another', webFile, "import { usersQueryKey as imported } from '../../users/api/get-users';", /must not import another feature/],
    ['the same through a longer path', webFile, "import { usersQueryKey as imported } from '../../../features/users/api/get-users';", /must not import another feature/],
    ['web shared code importing a feature', 'apps/web/src/lib/probe.ts', "import { usersQueryKey as imported } from '../features/users/api/get-users';", /Shared code must not import a feature/],
    ['a web feature importing app/', webFile, "import { router as imported } from '../../../app/router';", /nothing imports it/],
    ['a web feature importing server service code', webFile, "import { createProject as imported } from '../../../../../server/src/features/projects/projects.service';", /must not import server code/],
    ['packages/shared importing web code', 'packages/shared/src/probe.ts', "import { queryRoots as imported } from '../../../apps/web/src/lib/query-keys';", /must not import either app/],
    ["a server feature importing another one's service", serverFile, "import { createProject as imported } from '../projects/projects.service';", /queries and rules only/],
    ['the same through a longer path', serverFile, "import { createProject as imported } from '../../features/projects/projects.service';", /queries and rules only/],
    ["a server feature importing another one's routes dynamically", serverFile, "const imported = await import('../projects/projects.routes');", /queries and rules only/],
    ['server lib/ importing a feature', 'apps/server/src/lib/probe.ts', "import { createProject as imported } from '../features/projects/projects.service';", /lib\/ must not import a feature/],
    ["the platform importing a feature's routes", 'apps/server/src/platform/http/probe.ts', "import { projectsRoutes as imported } from '../../features/projects/projects.routes';", /platform must not import the product/],
    ['the platform importing lib/', 'apps/server/src/platform/probe.ts', "import { localDate as imported } from '../lib/time';", /platform must not import the product/],
    ['a service re-exported through a queries file', 'apps/server/src/features/projects/probe.queries.ts', "import { createProject as imported } from './projects.service';", /must not import \(or re-export\) a service/],
    ['a feature reaching inside the platform', serverFile, "import { openPool as imported } from '../../platform/database/statements';", /public face/],
    ['a script reaching inside the platform', 'apps/server/src/scripts/probe.ts', "import { lockDataDir as imported } from '../platform/database/data-dir-lock';", /public face/],
    ['a table importing code', 'apps/server/src/schema/probe.ts', "import { localDate as imported } from '../lib/time';", /must not import code/],
    ['a file placed directly in features/', 'apps/server/src/features/probe.ts', "import { localDate as imported } from '../lib/time';", /belongs to no feature/],
    ['a web file placed directly in features/', 'apps/web/src/features/probe.ts', "import { queryRoots as imported } from '../lib/query-keys';", /belongs to no feature/],
    ['import.meta.glob', webFile, "const imported = import.meta.glob('../../users/**/*.ts');", /import\.meta\.glob/],
    [
      'an eslint-disable comment on a boundary rule',
      serverFile,
      "// eslint-disable-next-line import-x/no-restricted-paths\nimport { createProject as imported } from '../projects/projects.service';",
      /import-x\/no-restricted-paths/,
    ],
    ['a blanket eslint-disable', serverFile, "/* eslint-disable */\nimport { createProject as imported } from '../projects/projects.service';", /Unexpected unlimited/],
  ])('refuses %s', async (_case, file, source, message) => {
    const errors = await boundaryErrors(file, source);
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });

  it.each([
    ['a web feature importing its own files and lib/', webFile, "import { queryRoots as imported } from '../../../lib/query-keys';"],
    ['a web screen test starting the real API', 'apps/web/src/features/tasks/components/probe.test.tsx', "import { startApiServer as imported } from '../../../test/api-server';"],
    ["a server feature reading another one's rules", serverFile, "import { PROJECT_NOT_FOUND as imported } from '../projects/projects.rules';"],
    ["a server feature reading another one's queries", serverFile, "import { findUser as imported } from '../users/users.queries';"],
    ["a server feature using the platform's public face", serverFile, "import { requireRole as imported } from '../../platform';"],
    ['the platform reading its tables', 'apps/server/src/platform/probe.ts', "import { jobs as imported } from '../schema/jobs';"],
  ])('allows %s', async (_case, file, source) => {
    expect(await boundaryErrors(file, source)).toEqual([]);
  });
});
