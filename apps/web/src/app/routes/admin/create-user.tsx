import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { CreateUserForm } from '../../../features/users/components/create-user-form';
import { useAuth } from '../../../lib/auth';

export function AdminCreateUserPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <>
      <PageTitle aside={<Link to="/admin" className="text-sm font-semibold text-brand-700 hover:underline">{t('admin.back')}</Link>}>
        {t('admin.createUserTitle')}
      </PageTitle>
      <div className="max-w-3xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">{user && <CreateUserForm companyId={user.company_id} />}</div>
    </>
  );
}
