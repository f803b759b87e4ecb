import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../../../server/src/test/factories';
import { AssigneePicker } from '../../../features/tasks/components/pickers';
import { searchPeopleQuery } from '../../../features/users/api/get-users';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';

let server: ApiServer;
let me: TestUser;
let myMember: TestUser;
let otherManager: TestUser;
let theirMember: TestUser;

beforeAll(async () => {
  server = await startApiServer();
  const company = await server.createCompany();
  me = await server.createUser(company, 'manager', { email: 'mmm-manager@example.test' });
  otherManager = await server.createUser(company, 'manager', { email: 'aaa-manager@example.test' });
  myMember = await server.createUser(company, 'team_member', { managerId: me.id, email: 'zzz-member@example.test' });
  theirMember = await server.createUser(company, 'team_member', { managerId: otherManager.id, email: 'bbb-member@example.test' });
  await server.signIn(me);
});
afterAll(() => server.close());

describe("a manager's assignee picker", () => {
  it('offers their own team first, then everyone else by e-mail', async () => {
    renderScreen(<AssigneePicker find={searchPeopleQuery} onSearch={() => {}} />);
    const select = await screen.findByRole('combobox', { name: 'Assignee' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(5));
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Select Assignee',
      myMember.email,
      otherManager.email,
      theirMember.email,
      me.email,
    ]);
  });
});
