import type { DashboardSummary } from '@siteboard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { StatCard } from '../../../components/ui/stat-card';
import { usePainted } from '../../../lib/after-paint';
import { useMediaQuery } from '../../../lib/use-media-query';
import { prefetchPagedList } from '../../../lib/lists';
import { useDashboardSummary } from '../api/get-dashboard-summary';
import { PANELS, panelQuery, type Board, type Panel } from './dashboard-lists';

// The tables (and the approve, decline and send-for-approval dialogs in them) load when a card first
// opens one, or when it is pointed at: the cards draw without them.
const loadPanels = () => import('./dashboard-panels');
const DashboardPanel = lazy(() => loadPanels().then((module) => ({ default: module.DashboardPanel })));
const OpenWork = lazy(() => loadPanels().then((module) => ({ default: module.OpenWork })));

const PANEL_ID = 'dashboard-panel';

const SUMMARY_FIELD: Record<Panel, keyof DashboardSummary> = { dueToday: 'due_today', pending: 'pending', mine: 'mine' };

/**
 * The manager's and the team member's dashboard: a card per list with its live count, all the
 * counts from one request (the summary, reloaded with every task change and push); a card opens
 * its table below (one at a time, a page at a time, loaded when opened and fetched ahead when
 * the card is pointed at) and closes it again. `leadingCard` comes first (the projects card,
 * given the projects count). The manager's middle card is the approvals waiting for them, the
 * team member's the subtasks they sent for approval.
 */
export function TaskDashboard({ leadingCard, board }: { leadingCard: (projectCount: number | undefined) => ReactNode; board: Board }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The cards draw at once (their counts follow); the request goes out once they are painted.
  const summary = useDashboardSummary({ enabled: usePainted() });
  const panels = PANELS[board];
  const [open, setOpen] = useState<Panel | null>(null);
  // On a phone the cards shrink to two rows of counts (a label keeps its words whole), so what they open (and the team member's own
  // work, listed below them) starts above the fold.
  const phone = useMediaQuery('(max-width: 639px)');
  const crewPhone = phone && board === 'team_member';

  return (
    <div className={phone ? 'space-y-4' : 'space-y-6'}>
      {summary.isError && (
        <ListLoadFailed onRetry={() => void summary.refetch()} />
      )}
      <div className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-4 ${phone ? 'compact-cards grid-cols-2 gap-2' : ''}`}>
        {leadingCard(summary.data?.ongoing_projects)}
        {(Object.keys(panels) as Panel[]).map((panel) => (
          <StatCard
            key={panel}
            label={t(panels[panel].label)}
            count={summary.data?.[SUMMARY_FIELD[panel]]}
            caption={panels[panel].caption && t(panels[panel].caption)}
            expanded={open === panel}
            controls={PANEL_ID}
            onToggle={() => setOpen((value) => (value === panel ? null : panel))}
            onIntent={() => {
              void loadPanels();
              void prefetchPagedList(queryClient, panelQuery(board, panel));
            }}
          />
        ))}
      </div>
      {open && (
        <section id={PANEL_ID} aria-labelledby={`${PANEL_ID}-title`} className="space-y-3">
          <h2 id={`${PANEL_ID}-title`} className="text-lg font-semibold text-ink">
            {t(panels[open].label)}
          </h2>
          <Suspense fallback={<PanelLoading />}>
            <DashboardPanel key={open} board={board} panel={open} />
          </Suspense>
        </section>
      )}
      {crewPhone && !open && (
        <section aria-labelledby="open-work-title" className="space-y-3">
          {/* Not "My Tasks": that card counts every task of theirs, done ones too (spec §6); this is what is left to do. */}
          <h2 id="open-work-title" className="text-lg font-semibold text-ink">
            {t('taskBoard.openWork')}
          </h2>
          <Suspense fallback={<PanelLoading />}>
            <OpenWork />
          </Suspense>
        </section>
      )}
    </div>
  );
}

function PanelLoading() {
  const { t } = useTranslation();
  return <p className="text-sm text-slate-500">{t('app.loading')}</p>;
}
