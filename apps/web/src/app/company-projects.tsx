import { useEffect } from 'react';
import { LazyPart } from '../components/ui/lazy-part';
import { getMajorTaskSubtaskPagesQuery } from '../features/projects/api/get-project-subtasks';
import { ProjectBrowser } from '../features/projects/components/project-browser';
import { searchPeopleQuery } from '../features/users/api/get-users';
import { onIdle } from '../lib/after-paint';
import { useAuth } from '../lib/auth';
import { preloadableLazy } from '../lib/preloadable-lazy';

/**
 * An opened project's major tasks, with the forms that add and decide on subtasks (react-hook-form,
 * zod and the shared schemas): half the screen's code, which the list of projects, what the screen
 * opens on, does not need. It loads once the list is idle, or when a project is opened first.
 */
const majorTaskList = preloadableLazy(async () => (await import('../features/tasks/components/major-task-list')).MajorTaskList);

/**
 * The company's projects with their major tasks, for the manager and the team member alike: what
 * each may do there (add subtasks, decide on them) follows from the viewer's role.
 * One request per page of ten projects, one per page of an opened project's major tasks and one per
 * page of an opened major task's subtasks; the assignee list searches the server.
 */
export function CompanyProjects() {
  const { user } = useAuth();
  useEffect(() => onIdle(() => void majorTaskList.load().catch(() => undefined)), []);
  if (!user) return null;
  return (
    <ProjectBrowser
      renderTasks={(project, majorTasks) => (
        <LazyPart>
          <majorTaskList.Component
            majorTasks={majorTasks}
            subtaskPages={getMajorTaskSubtaskPagesQuery}
            readOnly={project.status === 'completed'}
            viewer={user}
            findAssignees={searchPeopleQuery}
          />
        </LazyPart>
      )}
    />
  );
}
