/**
 * A due date is typed the page's way (decision record 097), not the browser's: 15.05.2031 in
 * German, 15/05/2031 in Spanish, and the subtask is saved for 2031-05-15.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subtask, User } from '@siteboard/shared';
import type { TestCompany } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import type { ListSearch } from '../../../lib/lists';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CreateSubtaskForm } from './create-subtask-form';

let server: ApiServer;
let company: TestCompany;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });

beforeAll(async () => {
  server = await startApiServer();
  company = await server.createCompany();
});
afterAll(async () => {
  await setLanguage('en', { remember: false });
  await server.close();
});

async function savedDueDate(name: string): Promise<string | null | undefined> {
  const found = await apiPage<Subtask>('/api/subtasks/', { query: { search: name, limit: 5 } });
  return found.items.find((subtask) => subtask.name === name)?.due_date;
}

const CASES = [
  { language: 'de', title: 'Titel', search: 'Zuständige Person suchen', assignee: 'Zuständig', due: 'Fällig am', submit: 'Teilaufgabe speichern', pattern: 'TT.MM.JJJJ', typed: '15.5.2031', shown: '15.05.2031', invalid: '31.02.2031', refusal: /muss im Kalender existieren/ },
  { language: 'es', title: 'Título', search: 'Buscar responsable', assignee: 'Responsable', due: 'Vencimiento', submit: 'Guardar subtarea', pattern: 'dd/mm/aaaa', typed: '15/05/2031', shown: '15/05/2031', invalid: '31/02/2031', refusal: /fecha real del calendario/ },
] as const;

describe('a due date in the page language', () => {
  for (const example of CASES) {
    it(`${example.language}: typed as ${example.typed}, saved as 2031-05-15; ${example.invalid} refused in the same words`, async () => {
      // A manager whose profile speaks the language (signing in settles on the profile's).
      const manager = await server.createUser(company, 'manager', { language: example.language });
      const member = await server.createUser(company, 'team_member', { managerId: manager.id });
      const projectId = (await insertProject(server.database.db, company.id, { managerId: manager.id, startDate: '2031-03-01', endDate: '2031-06-30' })).id;
      const majorTaskId = (await insertMajorTask(server.database.db, company.id, projectId)).id;
      await server.signIn(manager);
      await setLanguage(example.language, { remember: false });
      let created = 0;
      renderScreen(<CreateSubtaskForm id={`new-${example.language}`} majorTaskId={majorTaskId} projectId={projectId} projectManagerId={manager.id} findAssignees={findPeople} onCreated={() => created++} />);
      const name = `Pour slab ${example.language}`;
      await userEvent.type(screen.getByLabelText(example.title), name);
      await userEvent.type(screen.getByLabelText(example.search), member.email.slice(0, 6));
      const select = screen.getByLabelText(example.assignee);
      await waitFor(() => expect(within(select).getByRole('option', { name: new RegExp(member.email) })).toBeInTheDocument());
      await userEvent.selectOptions(select, within(select).getByRole('option', { name: new RegExp(member.email) }));

      const due = screen.getByLabelText(example.due);
      expect(due).toHaveAttribute('placeholder', example.pattern);
      await userEvent.type(due, example.invalid);
      await userEvent.click(screen.getByRole('button', { name: example.submit }));
      expect(await screen.findByRole('alert')).toHaveTextContent(example.refusal);
      expect(created).toBe(0);

      await userEvent.clear(due);
      await userEvent.type(due, example.typed);
      await userEvent.tab();
      expect(due).toHaveValue(example.shown);
      await userEvent.click(screen.getByRole('button', { name: example.submit }));
      await waitFor(() => expect(created).toBe(1));
      expect(await savedDueDate(name)).toBe('2031-05-15');
    });
  }
});
