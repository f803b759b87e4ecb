/**
 * The boundary lint (eslint.config.js, decision record 008) must catch a deliberate cross-feature
 * import however its path is spelt, and let the allowed ones through.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.dirname(fileURLToPath(import.meta.url)) });

async function boundaryErrors(filePath: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const probe = imported;\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => message.message);
}

describe('feature boundaries', () => {
  const webFile = 'apps/web/src/features/tasks/components/probe.tsx';
  const serverFile = 'apps/server/src/features/tasks/probe.ts';

  it.each([
    ['a web feature importing another', webFile, "import { usersQueryKey as imported } from '../../users/api/get-users';", /must not import another feature/],
    ['the same through a longer path', webFile, "import { usersQueryKey as imported } from '../../../features/users/api/get-users';", /must not import another feature/],
    ['web shared code importing a feature', 'apps/web/src/lib/probe.ts', "import { usersQueryKey as imported } from '../features/users/api/get-users';", /Shared code must not import a feature/],
    ['a web feature importing app/', webFile, "import { router as imported } from '../../../app/router';", /nothing imports it/],
    ['a server feature importing another one\'s service', serverFile, "import { createProject as imported } from '../projects/projects.service';", /queries and rules only/],
    ['the same through a longer path', serverFile, "import { createProject as imported } from '../../features/projects/projects.service';", /queries and rules only/],
  ])('refuses %s', async (_case, file, importLine, message) => {
    const errors = await boundaryErrors(file, importLine);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['a web feature importing its own files and lib/', webFile, "import { queryRoots as imported } from '../../../lib/query-keys';"],
    ['a server feature reading another one\'s rules', serverFile, "import { PROJECT_NOT_FOUND as imported } from '../projects/projects.rules';"],
    ['a server feature reading another one\'s queries', serverFile, "import { findUser as imported } from '../users/users.queries';"],
  ])('allows %s', async (_case, file, importLine) => {
    expect(await boundaryErrors(file, importLine)).toEqual([]);
  });
});
