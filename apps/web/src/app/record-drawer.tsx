import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SUBTASK_PARAM } from '../components/ui/subtask-link';

// The drawer (its forms, photos and timeline) loads when a subtask is first opened, not with the area's first screen.
const SubtaskDrawer = lazy(async () => {
  const [{ SubtaskDrawer: Drawer }, { searchPeopleQuery }] = await Promise.all([import('../features/tasks/components/subtask-drawer'), import('../features/users/api/get-users')]);
  return { default: () => <Drawer findAssignees={searchPeopleQuery} /> };
});

/** The subtask drawer every signed-in area opens over its screens (`?subtask=`), reassigning among the company's people. */
export function RecordDrawer() {
  const [params] = useSearchParams();
  const opened = params.has(SUBTASK_PARAM);
  // Once shown it stays mounted, so that closing it is the drawer's own (animated, focus-returning) close.
  const [mounted, setMounted] = useState(opened);
  if (opened && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <SubtaskDrawer />
    </Suspense>
  );
}
