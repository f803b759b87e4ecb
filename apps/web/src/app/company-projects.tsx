import { getMajorTaskSubtaskPagesQuery } from '../features/projects/api/get-project-subtasks';
import { ProjectBrowser } from '../features/projects/components/project-browser';
import { MajorTaskList } from '../features/tasks/components/major-task-list';
import { searchPeopleQuery } from '../features/users/api/get-users';
import { useAuth } from '../lib/auth';

/**
 * The company's projects with their major tasks, for the manager and the team member alike: what
 * each may do there (add subtasks, decide on them) follows from the viewer's role.
 * One request per page of ten projects, one per page of an opened project's major tasks and one per
 * page of an opened major task's subtasks; the assignee list searches the server.
 */
export function CompanyProjects() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <ProjectBrowser
      renderTasks={(project, majorTasks) => (
        <MajorTaskList
          majorTasks={majorTasks}
          subtaskPages={getMajorTaskSubtaskPagesQuery}
          readOnly={project.status === 'completed'}
          viewer={user}
          findAssignees={searchPeopleQuery}
        />
      )}
    />
  );
}
