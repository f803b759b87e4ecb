import { ProjectBrowser } from '../features/projects/components/project-browser';
import { MajorTaskList } from '../features/tasks/components/major-task-list';
import { useUsers } from '../features/users/api/get-users';
import { useAuth } from '../lib/auth';

/**
 * The company's projects with their major tasks, for the manager and the team member alike: what
 * each may do there (add subtasks, decide on them) follows from the viewer's role.
 * Two requests for the whole screen: the projects with their tasks embedded, and the assignee list.
 */
export function CompanyProjects() {
  const { user } = useAuth();
  const users = useUsers();
  if (!user) return null;
  return (
    <ProjectBrowser
      renderTasks={(project, reload) => (
        <MajorTaskList
          majorTasks={project.major_tasks}
          projectManagerId={project.manager?.id}
          readOnly={project.status === 'completed'}
          viewer={user}
          users={users.data}
          onChanged={reload}
        />
      )}
    />
  );
}
