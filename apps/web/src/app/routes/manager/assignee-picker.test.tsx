import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AssigneePicker } from '../../../features/tasks/components/pickers';
import { searchPeopleQuery } from '../../../features/users/api/get-users';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const me = await server.createUser(company, 'manager', { email: 'mmm-manager@example.test' });
  const otherManager = await server.createUser(company, 'manager', { email: 'aaa-manager@example.test' });
  const myMember = await server.createUser(company, 'team_member', { managerId: me.id, email: 'zzz-member@example.test' });
  const theirMember = await server.createUser(company, 'team_member', { managerId: otherManager.id, email: 'bbb-member@example.test', fullName: 'Ana Ortiz' });
  await server.signIn(me);
  return { me, myMember, otherManager, theirMember };
});

describe("a manager's assignee picker", () => {
  it('lists the crew first (their own team first), then the managers apart, each by name where they have one', async () => {
    renderScreen(<AssigneePicker find={searchPeopleQuery} onSearch={() => {}} />);
    const select = await screen.findByRole('combobox', { name: 'Assignee' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(5));
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Select Assignee',
      api.myMember.email,
      `Ana Ortiz (${api.theirMember.email})`,
      api.otherManager.email,
      api.me.email,
    ]);
    const [crew, managers] = within(select).getAllByRole('group');
    expect(crew).toHaveAttribute('label', 'Crew');
    expect(within(crew!).getAllByRole('option').map((option) => option.textContent)).toEqual([api.myMember.email, `Ana Ortiz (${api.theirMember.email})`]);
    expect(managers).toHaveAttribute('label', 'Managers');
    expect(within(managers!).getAllByRole('option').map((option) => option.textContent)).toEqual([api.otherManager.email, api.me.email]);
  });
});
