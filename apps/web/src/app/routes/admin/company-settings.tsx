import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RetryAlert } from '../../../components/ui/alert';
import { buttonClasses } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { useCompanySettings } from '../../../lib/company-settings';
import { CompanyPasswordForm } from '../../../features/company/components/company-password-form';
import { CompanySettingsForm } from '../../../features/company/components/company-settings-form';
import { EmailSettings } from '../../../features/company/components/email-settings';
import { useQueryFailure } from '../../../lib/failure-message';

export function AdminCompanySettingsPage() {
  const { t } = useTranslation();
  const settings = useCompanySettings();
  const failure = useQueryFailure(settings.error, { other: 'companySettings.loadFailed' });
  return (
    <>
      <PageTitle aside={<Link to="/admin" className="text-sm font-semibold text-brand-700 hover:underline">{t('admin.back')}</Link>}>
        {t('companySettings.title')}
      </PageTitle>
      <div className="max-w-2xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        {failure && (
          <RetryAlert onRetry={() => void settings.refetch()} retryLabel={t('account.retry')}>
            {failure}
          </RetryAlert>
        )}
        {settings.isPending && !failure && <p className="text-sm text-slate-600">{t('app.loading')}</p>}
        {/* Keyed by the loaded answer's id, so a form starts from the company's saved values. */}
        {settings.data && <CompanySettingsForm key={settings.data.id} settings={settings.data} />}
      </div>
      <section aria-labelledby="company-password-title" className="mt-6 max-w-2xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="company-password-title" className="text-lg font-semibold text-ink">
          {t('companyPassword.title')}
        </h2>
        <CompanyPasswordForm />
      </section>
      <section aria-labelledby="email-settings-title" className="mt-6 max-w-2xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="email-settings-title" className="text-lg font-semibold text-ink">
          {t('emailSettings.title')}
        </h2>
        <EmailSettings
          configuredExtra={
            <Link to="/admin/invitations" className={buttonClasses('secondary')}>
              {t('invitations.title')}
            </Link>
          }
        />
      </section>
    </>
  );
}
