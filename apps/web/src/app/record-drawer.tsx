import { SubtaskDrawer } from '../features/tasks/components/subtask-drawer';
import { searchPeopleQuery } from '../features/users/api/get-users';

/** The subtask drawer every signed-in area opens over its screens (`?subtask=`), reassigning among the company's people. */
export function RecordDrawer() {
  return <SubtaskDrawer findAssignees={searchPeopleQuery} />;
}
