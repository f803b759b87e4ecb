import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@siteboard/shared';
import { FeedbackAlert, useRowEditing } from '../../../components/ui/editable-rows';
import { PersonText } from '../../../components/ui/person-text';
import { SearchBox } from '../../../components/ui/search-box';
import { ShowMore } from '../../../components/ui/show-more';
import { actionsCellClass, cellClass, Table, wrapCellClass } from '../../../components/ui/table';
import { useIdleAfterPaint } from '../../../lib/after-paint';
import type { PagedList } from '../../../lib/lists';
import { useMediaQuery } from '../../../lib/use-media-query';
import { loadOnApproach, preloadableLazy } from '../../../lib/preloadable-lazy';
import { useDeleteUser } from '../api/delete-user';
import { DeleteUserActions, SetPasswordButton } from './user-row-actions';

// The edit row (its form, zod validation and the schemas) loads when a row's actions are first
// pointed at or focused, or at the first Edit: the table draws without it (decision record 095).
const { Component: UserEditRow, load: loadEditRow } = preloadableLazy(() => import('./user-edit-row').then((module) => module.UserEditRow));

/**
 * Rows drawn with the table's first render: about a screen's worth, twelve table rows at 1280 px, four
 * cards on a phone (below `md`, where each row is a card of about 250 px). A page is 50 people; the
 * rest are drawn once these have been painted and the main thread is idle (decision record 098).
 */
const FIRST_ROWS = { table: 12, cards: 4 };

/** Spec §8: a user that is gone, a refusal, else the server's own words. */
const DELETE_FAILURE = { notFound: 'admin.users.notFound', forbidden: 'admin.users.forbiddenDelete', other: 'admin.users.failed' };

/**
 * The company's users, a page at a time from the server, with inline editing of role,
 * designation, mobile number (and the manager a team member reports to) and deletion after a
 * confirmation. The admin's own row has neither: the server refuses both (spec §5).
 */
export function AdminUsersTable({
  users,
  list,
  search,
  onSearch,
  managers,
  currentUserId,
  notice,
}: {
  users: User[];
  list: PagedList;
  /** What the e-mail search box holds; the list shown is the server's answer to it. */
  search: string;
  onSearch: (search: string) => void;
  managers: User[];
  currentUserId: number;
  notice?: string;
}) {
  const { t } = useTranslation();
  const rows = useRowEditing(notice);
  const allRows = useIdleAfterPaint();
  const cards = !useMediaQuery('(min-width: 768px)');
  const shown = allRows ? users : users.slice(0, cards ? FIRST_ROWS.cards : FIRST_ROWS.table);
  const deleteUser = useDeleteUser();

  // The first column shows a person's name over their e-mail (or the e-mail alone).
  const columns = ['person', 'code', 'role', 'designation', 'mobile', 'manager'].map((column) => t(`admin.users.${column}`));
  // Each row's cells carry their column's name for the phone's stacked cards: translated once, not per row.
  const [, codeLabel, roleLabel, designationLabel, mobileLabel, managerLabel] = columns;

  return (
    <>
      <FeedbackAlert feedback={rows.feedback} onDismiss={rows.dismiss} />
      <SearchBox label={t('admin.users.search')} placeholder={t('admin.users.searchPlaceholder')} value={search} onChange={onSearch} />
      <Table stackOnPhone label={t('admin.users.tableLabel')} columns={[...columns, <span className="sr-only">{t('admin.actions')}</span>]} isEmpty={users.length === 0} empty={t('admin.users.empty')}>
        {shown.map((user) => {
          const view = (
            <tr key={user.id} className="bg-white">
              <th scope="row" className={`${wrapCellClass} font-medium text-ink`}>
                <PersonText person={user} keepShortEmailWhole />
              </th>
              <td data-label={codeLabel} className={cellClass}>{user.code}</td>
              <td data-label={roleLabel} className={wrapCellClass}>{t(`role.${user.role}`)}</td>
              <td data-label={designationLabel} className={wrapCellClass}>{user.designation ?? t('common.notAvailable')}</td>
              <td data-label={mobileLabel} className={cellClass}>{user.mobile_number ?? t('common.notAvailable')}</td>
              {/* Only a team member reports to a manager: for the others the cell stays empty (and a phone's card drops the line). */}
              <td data-label={managerLabel} className={wrapCellClass}>
                {user.role !== 'team_member' ? null : user.manager_data ? <PersonText truncateEmail person={managers.find((manager) => manager.id === user.manager_id) ?? user.manager_data} /> : t('common.notAvailable')}
              </td>
              <td className={actionsCellClass}>
                {user.id !== currentUserId && (
                  <div className="flex flex-wrap gap-1.5 md:flex-nowrap md:gap-1" {...loadOnApproach(loadEditRow)}>
                    <DeleteUserActions
                      user={user}
                      busy={deleteUser.isPending && deleteUser.variables?.id === user.id}
                      focusEdit={rows.lastEditedId === user.id}
                      onEdit={() => rows.startEdit(user.id)}
                      onDelete={(reassignTo) => rows.run(() => deleteUser.mutateAsync({ id: user.id, reassignTo }), t('admin.users.deleted'), DELETE_FAILURE)}
                    />
                    <SetPasswordButton user={user} onDone={(text) => rows.succeed(text)} />
                  </div>
                )}
              </td>
            </tr>
          );
          return rows.editingId === user.id ? (
            // Until the edit row has loaded (fetched when the row's actions were pointed at), the row stays as it was.
            <Suspense key={user.id} fallback={view}>
              <UserEditRow user={user} managers={managers.filter((manager) => manager.id !== user.id)} onClose={rows.finishEdit} onFailure={rows.fail} />
            </Suspense>
          ) : (
            view
          );
        })}
      </Table>
      <ShowMore list={list} />
    </>
  );
}

