import { lazy, type ReactElement, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import type { Role } from '@siteboard/shared';
import { RequireRole } from '../components/layouts/require-role';
import { WorkLayout } from '../components/layouts/work-layout';
import { Icon } from '../components/ui/icons';
import { AfterFirstPaint } from './after-first-paint';
import { AreaNotifications } from './area-notifications';
import { PasswordGate } from './password-gate';
import { RecordDrawer } from './record-drawer';
import { accountMenu, offlineTools, pageNotices } from './work-area-tools';

// The calendar feed's button and panel load after the area's first paint (decision record 036).
const CalendarFeedButton = lazy(() => import('../features/calendar/components/calendar-feed-button').then((module) => ({ default: module.CalendarFeedButton })));

/** The header's calendar tool, after the area's first paint (every area's shell). */
export const calendarFeed = (
  <AfterFirstPaint
    placeholder={
      <span className="flex h-9 w-9 shrink-0 items-center justify-center text-slate-600" aria-hidden>
        <Icon name="calendar" />
      </span>
    }
  >
    <CalendarFeedButton />
  </AfterFirstPaint>
);

/**
 * A role's signed-in area: the role guard, the password that must be changed first, the shell around
 * the area's screens (`children` are its routes), the record drawer, and unknown paths to the company picker.
 */
export function RoleArea({ role, shell, children }: { role: Role; shell: ReactElement; children: ReactNode }) {
  return (
    <RequireRole role={role}>
      <PasswordGate>
        <Routes>
          <Route element={shell}>{children}</Route>
          <Route path="*" element={<Navigate to="/company-selection" replace />} />
        </Routes>
        <RecordDrawer />
      </PasswordGate>
    </RequireRole>
  );
}

/** The manager's and the team member's shell, with its live notifications, calendar feed, offline tools and account menu. */
export function workShell(area: 'manager' | 'team-member') {
  return <WorkLayout area={area} notifications={<AreaNotifications />} calendarFeed={calendarFeed} offline={offlineTools} account={accountMenu} notices={pageNotices} />;
}
