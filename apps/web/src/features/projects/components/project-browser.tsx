import * as Tabs from '@radix-ui/react-tabs';
import type { MajorTaskSummary, Project } from '@siteboard/shared';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { DisclosureButton } from '../../../components/ui/disclosure-button';
import { StatusBadge } from '../../../components/ui/badges';
import { DownloadListButtons } from '../../../components/ui/download-list-buttons';
import { SearchBox } from '../../../components/ui/search-box';
import { ShowMore } from '../../../components/ui/show-more';
import { formatDate } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/lists';
import { FIRST_PROJECT_FILTER, useProjectPages, type ProjectFilter } from '../api/get-projects';
import { statusesOf, type ProjectTab } from '../projects.rules';
import { ExpandedProjectTasks } from './expanded-project';
import { PersonText } from '../../../components/ui/person-text';

/** What an open project shows of its major tasks (a page of them, with their subtasks counted). */
export type RenderProjectTasks = (project: Project, majorTasks: MajorTaskSummary[]) => ReactNode;

const TABS: { value: ProjectTab; label: string }[] = [
  { value: 'ongoing', label: 'projectBoard.ongoing' },
  { value: 'completed', label: 'projectBoard.completed' },
];

/**
 * The company's projects in two tabs with a name search, ten at a time. The server filters and
 * pages; an opened project fetches a page of its major tasks.
 */
export function ProjectBrowser({ renderTasks }: { renderTasks: RenderProjectTasks }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<ProjectTab>(FIRST_PROJECT_FILTER.tab);
  const [search, setSearch] = useState(FIRST_PROJECT_FILTER.search);
  const settledSearch = useDebouncedValue(search.trim());

  return (
    <Tabs.Root value={tab} onValueChange={(value) => setTab(value as ProjectTab)} className="space-y-4">
      {/* The tabs, the search and the files each keep their own line's width and wrap as wholes: in a long language the tabs' words would break first. */}
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <Tabs.List aria-label={t('projectBoard.tabs')} className="inline-flex rounded-xl bg-slate-200/70 p-1">
          {TABS.map((item) => (
            <Tabs.Trigger
              key={item.value}
              value={item.value}
              className="rounded-lg px-4 py-2 text-sm font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-ink data-[state=active]:shadow-sm"
            >
              {t(item.label)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
          <SearchBox label={t('projectBoard.search')} placeholder={t('projectBoard.searchPlaceholder')} value={search} onChange={setSearch} />
          <DownloadListButtons path="/api/projects/" query={{ status: statusesOf(tab), search: settledSearch }} subject={t(TABS.find((item) => item.value === tab)!.label)} />
        </div>
      </div>
      {TABS.map((item) => (
        <Tabs.Content key={item.value} value={item.value} className="space-y-4 focus-visible:outline-none">
          <ProjectList filter={{ tab: item.value, search: settledSearch }} renderTasks={renderTasks} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

/** The open tab's projects: mounted per tab, so another tab's rows never stand in while this one loads. */
function ProjectList({ filter, renderTasks }: { filter: ProjectFilter; renderTasks: RenderProjectTasks }) {
  const { t } = useTranslation();
  const projects = useProjectPages(filter);

  return (
    <>
      {projects.query.isError && (
        <ListLoadFailed onRetry={() => void projects.query.refetch()} />
      )}
      {projects.query.isPending ? (
        <p className="text-sm text-slate-500">{t('app.loading')}</p>
      ) : projects.items.length > 0 ? (
        <ul className="space-y-3" aria-busy={projects.query.isPlaceholderData}>
          {projects.items.map((project) => (
            <ProjectRow key={project.id} project={project} renderTasks={renderTasks} />
          ))}
        </ul>
      ) : (
        !projects.query.isError && <p className="rounded-2xl bg-white p-6 text-center text-sm text-slate-500 ring-1 ring-slate-200">{t('projectBoard.empty')}</p>
      )}
      <ShowMore list={projects} />
    </>
  );
}

function ProjectRow({ project, renderTasks }: { project: Project; renderTasks: RenderProjectTasks }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const na = t('common.notAvailable');
  // A badge goes under the name, in its column: beside the columns it squeezed them (a name one
  // letter a line on a phone, "Fertigstellung" broken at 1280 px in German).
  const summary = (muted: boolean, badge?: ReactNode) => (
    <span className="grid min-w-0 flex-1 gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-[2fr_2fr_1fr_1fr]">
      <span className="flex min-w-0 flex-col items-start gap-1.5">
        <span className={`min-w-0 max-w-full break-words text-base font-semibold ${muted ? 'text-slate-600' : 'text-ink'}`}>{project.name}</span>
        {badge}
      </span>
      <Fact muted={muted} label={t('projectBoard.manager')} value={project.manager ? <PersonText person={project.manager} /> : na} />
      <Fact muted={muted} label={t('projectBoard.startDate')} value={formatDate(project.start_date) ?? na} />
      <Fact muted={muted} label={t('projectBoard.endDate')} value={formatDate(project.end_date) ?? na} />
    </span>
  );

  // A completed project is greyed out and cannot be opened (spec §4).
  if (project.status === 'completed') {
    return (
      <li className="rounded-2xl bg-slate-100 ring-1 ring-slate-200">
        <h2 className="flex flex-wrap items-start gap-3 px-4 py-4">
          <span className="w-4 shrink-0" aria-hidden />
          {summary(true, <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-700">{t('projectBoard.viewOnly')}</span>)}
        </h2>
      </li>
    );
  }
  return (
    <li className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2>
        <DisclosureButton open={open} controls={`${id}-tasks`} onToggle={() => setOpen((value) => !value)} className="items-start rounded-2xl px-4 py-4">
          {/* The Ongoing tab holds the planned projects too (spec): one not started yet says so. */}
          {summary(false, project.status === 'planned' ? <StatusBadge status="planned" /> : undefined)}
        </DisclosureButton>
      </h2>
      {open && (
        <div id={`${id}-tasks`} className="border-t border-slate-100 bg-slate-50/60 p-2 sm:p-4">
          <ExpandedProjectTasks projectId={project.id}>{(majorTasks) => renderTasks(project, majorTasks)}</ExpandedProjectTasks>
        </div>
      )}
    </li>
  );
}

function Fact({ label, value, muted }: { label: string; value: ReactNode; muted: boolean }) {
  return (
    <span className="flex min-w-0 flex-col text-sm">
      <span className={`text-xs font-medium uppercase tracking-wide ${muted ? 'text-slate-600' : 'text-slate-500'}`}>{label}</span>
      <span className={`min-w-0 break-words font-normal ${muted ? 'text-slate-600' : 'text-slate-700'}`}>{value}</span>
    </span>
  );
}
