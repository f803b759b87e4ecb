import type { DailyLogProject } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RetryAlert } from '../../../components/ui/alert';
import { DateField, SelectField, TextField } from '../../../components/ui/form-field';
import { useQueryFailure } from '../../../lib/failure-message';
import { formatDate } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/lists';
import { useDailyLogProjects } from '../api/get-daily-log-projects';

const WHOLE_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface PickedDay {
  project: DailyLogProject;
  date: string;
}

/**
 * Which project and day the screen shows, kept in the address (`?project=&date=`, so a link opens
 * a given day): the person's projects (open ones first, `accept` narrows them), a day up to the
 * project's own today. A company with more projects than a page gets a search box.
 */
export function useLogPicker(accept: (project: DailyLogProject) => boolean, mayLeave: () => boolean | Promise<boolean> = () => true) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  // A date being typed, until it is a whole date (which then goes into the address).
  const [typedDate, setTypedDate] = useState<string>();
  const projects = useDailyLogProjects(useDebouncedValue(search.trim()));
  const failure = useQueryFailure(projects.error, { other: 'dailyLog.loadFailed' });
  const choices = (projects.data?.items ?? []).filter(accept);
  const projectId = Number(params.get('project')) || choices[0]?.id || null;
  const project = choices.find((candidate) => candidate.id === projectId) ?? null;
  const requested = params.get('date');
  const date = project ? (requested && WHOLE_DATE.test(requested) && requested <= project.today ? requested : project.today) : null;
  // A whole date after the project's today stays typed, with the reason, rather than turning into today.
  const typedTooLate = project && typedDate && WHOLE_DATE.test(typedDate) && typedDate > project.today;

  /** Another project or day, once the log shown may be left (`mayLeave`: what was typed there is not saved). */
  const choose = async (next: { project?: number; date?: string }) => {
    if (!(await mayLeave())) return;
    setTypedDate(undefined);
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next.project !== undefined) {
          updated.set('project', String(next.project));
          updated.delete('date');
        }
        if (next.date !== undefined) updated.set('date', next.date);
        return updated;
      },
      { replace: true },
    );
  };

  const picker = (
    <div className="grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 sm:p-5 lg:grid-cols-3">
      {projects.data && projects.data.total > projects.data.items.length && (
        <TextField label={t('dailyLog.searchProjects')} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      )}
      {/* Two columns of three: a project's long name ("Réhabilitation lourde de l'ancienne école…") is read whole, not cut at a third. */}
      <div className="sm:col-span-2">
        <SelectField label={t('dailyLog.project')} value={project?.id ?? ''} disabled={choices.length === 0} onChange={(event) => void choose({ project: Number(event.target.value) })}>
          {choices.length === 0 && <option value="">{projects.isPending ? t('app.loading') : t('dailyLog.noProjects')}</option>}
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.status === 'completed' ? t('dailyLog.completedProject', { name: choice.name }) : choice.name}
            </option>
          ))}
        </SelectField>
      </div>
      <DateField
        label={t('dailyLog.date')}
        value={typedDate ?? date ?? ''}
        max={project?.today}
        disabled={!project}
        error={typedTooLate ? t('dailyLog.dateAfterToday', { today: formatDate(project.today) }) : undefined}
        onChange={(next) => (WHOLE_DATE.test(next) && (!project || next <= project.today) ? void choose({ date: next }) : setTypedDate(next))}
      />
      {failure && (
        <div className="sm:col-span-2 lg:col-span-3">
          <RetryAlert onRetry={() => void projects.refetch()} retryLabel={t('dailyLog.retry')}>
            {failure}
          </RetryAlert>
        </div>
      )}
    </div>
  );
  const picked: PickedDay | null = project && date ? { project, date } : null;
  return { picker, picked, choose, loading: projects.isPending };
}
