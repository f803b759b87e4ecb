import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { updateCompanySettingsInput, type CompanySettings, type UpdateCompanySettingsInput } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LanguageOptions } from '../../../components/ui/language-options';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { TimeZonePicker } from '../../../components/ui/time-zone-picker';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';

import { useUpdateCompanySettings } from '../api/update-company-settings';

type Values = Pick<CompanySettings, 'name' | 'timezone' | 'default_language'>;
type FormOutput = z.output<typeof updateCompanySettingsInput>;
const FIELDS = ['name', 'timezone', 'default_language'] as const;

/**
 * The admin's company settings: name, time zone, new users' language. Only what changed is sent;
 * the server's refusals (a name another company has, a zone it does not know) land on their
 * fields and the form keeps what was typed.
 */
export function CompanySettingsForm({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation();
  const { refreshProfile } = useAuth();
  const update = useUpdateCompanySettings();
  const failureMessage = useFailureMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<'saved' | 'unchanged' | null>(null);
  // The name is what everyone types at the company step: a new one is the only one that signs in.
  const [renamedTo, setRenamedTo] = useState<string | null>(null);
  const initial: Values = { name: settings.name, timezone: settings.timezone, default_language: settings.default_language };
  const form = useForm<UpdateCompanySettingsInput, unknown, FormOutput>({
    resolver: zodResolver(updateCompanySettingsInput),
    defaultValues: initial,
  });
  const { errors } = form.formState;
  const nameTyped = form.watch('name') ?? '';

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setSaved(null);
    setRenamedTo(null);
    const changed: UpdateCompanySettingsInput = {};
    for (const field of FIELDS) if (values[field] !== undefined && values[field] !== initial[field]) Object.assign(changed, { [field]: values[field] });
    if (Object.keys(changed).length === 0) {
      setSaved('unchanged');
      return;
    }
    try {
      const next = await update.mutateAsync(changed);
      form.reset({ name: next.name, timezone: next.timezone, default_language: next.default_language });
      setSaved('saved');
      if (changed.name !== undefined) setRenamedTo(next.name);
      // The header shows the company's name; an admin without a zone of their own reads the company's clock.
      if (changed.name !== undefined || changed.timezone !== undefined) await refreshProfile();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) form.setError('name', { type: 'server', message: error.detail });
      else if (!applyFieldErrors<Values>(error, form.setError, FIELDS)) setFailure(failureMessage(error, { other: 'companySettings.failed' }));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {saved && (
        <Alert tone={saved === 'saved' ? 'success' : 'info'}>
          {t(saved === 'saved' ? 'companySettings.saved' : 'companySettings.unchanged')}
          {renamedTo !== null && ` ${t('companySettings.renamed', { name: renamedTo })}`}
        </Alert>
      )}
      <TextField
        label={t('companySettings.name')}
        autoComplete="organization"
        error={errors.name?.message}
        hint={t('companySettings.nameHint')}
        {...form.register('name')}
      />
      {nameTyped.trim() !== '' && nameTyped.trim() !== initial.name && <Alert tone="info">{t('companySettings.renameWarning', { name: initial.name })}</Alert>}
      <Controller
        control={form.control}
        name="timezone"
        render={({ field, fieldState }) => (
          <TimeZonePicker label={t('companySettings.timeZone')} hint={t('companySettings.timeZoneHint')} value={field.value ?? ''} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
      <SelectField label={t('companySettings.defaultLanguage')} hint={t('companySettings.defaultLanguageHint')} error={errors.default_language?.message} {...form.register('default_language')}>
        <LanguageOptions />
      </SelectField>
      <div className="flex justify-end">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {t('companySettings.save')}
        </Button>
      </div>
    </form>
  );
}
