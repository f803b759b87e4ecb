import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { PageTitle } from '../../../components/ui/page-title';
import { AdminCreateProjectForm } from '../../../features/projects/components/admin-create-project-form';
import { useManagers } from '../../../features/users/api/get-users';
import { useAuth } from '../../../lib/auth';
import { useQueryFailure } from '../../../lib/failure-message';

export function AdminCreateProjectPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const managers = useManagers();
  const managersFailure = useQueryFailure(managers.error, { other: 'admin.createUser.managersFailed' });
  return (
    <>
      <PageTitle aside={<Link to="/admin" className="text-sm font-semibold text-brand-700 hover:underline">{t('admin.back')}</Link>}>
        {t('admin.createProjectTitle')}
      </PageTitle>
      <div className="max-w-3xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        {managersFailure && <Alert tone="error">{managersFailure}</Alert>}
        {user && <AdminCreateProjectForm companyId={user.company_id} managers={managers.data} managersLoading={managers.isPending} />}
      </div>
    </>
  );
}
