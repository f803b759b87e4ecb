import * as Dialog from '@radix-ui/react-dialog';
import * as Popover from '@radix-ui/react-popover';
import * as Tabs from '@radix-ui/react-tabs';
import { useQueryClient } from '@tanstack/react-query';
import { SYSTEM_AUTHOR, type NotificationRecord } from '@siteboard/shared';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSubtaskHref } from '../../../components/ui/subtask-link';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TextWithEmails } from '../../../components/ui/email-text';
import { Icon, type IconName } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { STORAGE_KEYS } from '../../../lib/storage';
import { getNotificationsQueryOptions, useNotifications } from '../api/get-notifications';
import { markNotificationsRead } from '../api/mark-notifications-read';
import { useLiveNotifications } from '../live-notifications';
import { badgeCount, mergeKey, mergeNotifications, type BellItem } from '../notifications.rules';

const TYPE_STYLE: Record<string, { icon: IconName; tone: string }> = {
  task_submission: { icon: 'send', tone: 'bg-blue-100 text-blue-700' },
  task_approved: { icon: 'completed', tone: 'bg-green-100 text-green-700' },
  task_declined: { icon: 'declined', tone: 'bg-red-100 text-red-700' },
  task_assignment: { icon: 'tasks', tone: 'bg-indigo-100 text-indigo-700' },
  deadline_reminder: { icon: 'clock', tone: 'bg-amber-100 text-amber-800' },
  approval_delay: { icon: 'alert', tone: 'bg-orange-100 text-orange-800' },
  daily_log_reminder: { icon: 'dailyLog', tone: 'bg-teal-100 text-teal-800' },
  task_unassigned: { icon: 'tasks', tone: 'bg-slate-200 text-slate-700' },
};
const DEFAULT_STYLE: { icon: IconName; tone: string } = { icon: 'bell', tone: 'bg-slate-100 text-slate-700' };

const readLastOpenAt = () => localStorage.getItem(STORAGE_KEYS.notificationsLastOpenAt);

/**
 * The header bell (spec §2, §4). Opening it fetches the list and remembers which items were
 * unread (they stay highlighted while open); it marks nothing read. An item is read when its
 * button or its subtask is opened, or with the rest by "Mark all as read" (decision record 065).
 */
export function NotificationBell({ email }: { email: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = getNotificationsQueryOptions(email).queryKey;
  const records = useNotifications(email);
  const live = useLiveNotifications();
  const [open, setOpen] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const [lastOpenAt, setLastOpenAt] = useState(readLastOpenAt);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  // Items the user marked read one by one: read here at once, whatever the server's answer.
  const [markedRead, setMarkedRead] = useState<ReadonlySet<string>>(new Set());

  const list = records.data ?? [];
  const items = mergeNotifications(list, live);
  const badge = badgeCount(
    list,
    live.filter((push) => !markedRead.has(mergeKey(push.type, push.message))),
    lastOpenAt,
  );
  const since = lastOpenAt ? Date.parse(lastOpenAt) : Number.NEGATIVE_INFINITY;
  const isUnread = (item: BellItem) =>
    !markedRead.has(item.key) && (highlighted.has(item.key) || (!item.isRead && (item.source === 'api' || Date.parse(item.createdAt) > since)));

  const markOneRead = async (item: BellItem) => {
    setMarkedRead((current) => new Set(current).add(item.key));
    setHighlighted((current) => {
      const next = new Set(current);
      next.delete(item.key);
      return next;
    });
    if (item.isRead || item.id === undefined) return;
    try {
      await markNotificationsRead({ ids: [item.id] });
      queryClient.setQueryData<NotificationRecord[]>(queryKey, (current) => current?.map((record) => (record.id === item.id ? { ...record, is_read: true } : record)));
      // A push's own record arrives, read, in place of the live copy.
      if (item.source === 'live') void queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      // Spec §8: notification failures are only logged.
      console.error('A notification could not be marked read', error);
    }
  };
  const unread = items.filter(isUnread);
  const read = items.filter((item) => !isUnread(item));

  const markAllRead = async () => {
    setMarkedRead((current) => new Set([...current, ...unread.map((item) => item.key)]));
    setHighlighted(new Set());
    try {
      // Up to the newest one shown: one that arrived since (not yet seen) stays unread.
      const shownIds = unread.flatMap((item) => (item.id === undefined ? [] : [item.id]));
      await markNotificationsRead(shownIds.length > 0 ? { up_to_id: Math.max(...shownIds) } : {});
      queryClient.setQueryData<NotificationRecord[]>(queryKey, (current) => current?.map((record) => ({ ...record, is_read: true })));
    } catch (error) {
      // Spec §8: notification failures are only logged.
      console.error('Notifications could not be marked read', error);
    }
  };

  useEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    window.addEventListener('resize', close);
    return () => window.removeEventListener('resize', close);
  }, [open]);

  const onOpen = async () => {
    const openedAt = new Date().toISOString();
    try {
      const fresh = await queryClient.fetchQuery({ ...getNotificationsQueryOptions(email), staleTime: 0 });
      const wasUnread = mergeNotifications(fresh, live).filter(isUnread);
      setHighlighted(new Set(wasUnread.map((item) => item.key)));
      localStorage.setItem(STORAGE_KEYS.notificationsLastOpenAt, openedAt);
      setLastOpenAt(openedAt);
    } catch (error) {
      // Spec §8: notification failures are only logged.
      console.error('Notifications could not be loaded', error);
    }
  };

  // What arrives live is said to a screen reader too (the badge's count changes silently).
  const newest = live.at(-1);
  return (
    <>
      <p className="sr-only" aria-live="polite" data-testid="notification-announcement">
        {newest ? t('notifications.announce', { message: newest.message }) : ''}
      </p>
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) void onOpen();
          else setHighlighted(new Set());
        }}
      >
        <Popover.Trigger asChild>
          <button
            ref={bell}
            type="button"
            className="relative flex h-9 w-9 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
            aria-label={badge > 0 ? t('notifications.bellUnread', { count: badge }) : t('notifications.bell')}
            data-testid="notification-bell"
          >
            <Icon name="bell" />
            {badge > 0 && (
              <span data-testid="notification-badge" className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white">
                {badge}
              </span>
            )}
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="end" sideOffset={8} collisionPadding={8} className="z-50 flex max-h-[min(var(--radix-popover-content-available-height,80vh),44rem)] w-[calc(100vw-1rem)] flex-col rounded-xl bg-white shadow-lg ring-1 ring-slate-200 md:w-[26rem]" aria-label={t('notifications.title')}>
            <Tabs.Root defaultValue="unread" className="flex min-h-0 flex-1 flex-col">
              <Tabs.List aria-label={t('notifications.title')} className="flex border-b border-slate-200">
                {[
                  { value: 'unread', label: t('notifications.unreadTab', { count: unread.length }) },
                  { value: 'read', label: t('notifications.readTab', { count: read.length }) },
                ].map((tab) => (
                  <Tabs.Trigger key={tab.value} value={tab.value} className="flex-1 px-3 py-2.5 text-sm font-semibold text-slate-600 data-[state=active]:border-b-2 data-[state=active]:border-brand-600 data-[state=active]:text-ink">
                    {tab.label}
                  </Tabs.Trigger>
                ))}
              </Tabs.List>
              {/* The list takes the height the window leaves, with a scrollbar that stays visible. */}
              <Tabs.Content value="unread" className="scroll-visible min-h-0 flex-1 overflow-y-auto">
                <NotificationList
                  items={unread}
                  empty={t('notifications.empty')}
                  highlighted={highlighted}
                  isUnread={isUnread}
                  onMarkRead={(item) => void markOneRead(item)}
                  onOpenItem={(item) => {
                    void markOneRead(item);
                    setOpen(false);
                  }}
                />
              </Tabs.Content>
              <Tabs.Content value="read" className="scroll-visible min-h-0 flex-1 overflow-y-auto">
                <NotificationList items={read} empty={t('notifications.empty')} highlighted={highlighted} isUnread={isUnread} onMarkRead={(item) => void markOneRead(item)} onOpenItem={() => setOpen(false)} />
              </Tabs.Content>
            </Tabs.Root>
            <div className="shrink-0 space-y-2 border-t border-slate-200 p-2">
              {unread.length > 0 && (
                <Button variant="ghost" className="w-full" onClick={() => void markAllRead()}>
                  {t('notifications.markAllRead')}
                </Button>
              )}
              <DesktopNotificationsItem />
              <Button
                variant="secondary"
                className="w-full"
                onClick={() => {
                  setOpen(false);
                  setShowAll(true);
                  void queryClient.invalidateQueries({ queryKey });
                }}
              >
                {t('notifications.viewAll')}
              </Button>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <Dialog.Root open={showAll} onOpenChange={setShowAll}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
          <Dialog.Content
            className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-2xl bg-white p-5 shadow-xl"
            aria-describedby={undefined}
            // Opened from the bell's panel, which closed: back to the bell itself.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              bell.current?.focus();
            }}
          >
            <Dialog.Title className="text-lg font-semibold text-ink">{t('notifications.allTitle')}</Dialog.Title>
            {/* Focusable so a keyboard can scroll a long list. */}
            <div tabIndex={0} role="region" aria-label={t('notifications.allTitle')} className="max-h-80 overflow-y-auto rounded-lg ring-1 ring-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
              {records.isFetching && !records.data ? (
                <p className="p-4 text-center text-sm text-slate-500">{t('notifications.loading')}</p>
              ) : (
                <NotificationList
                  items={items}
                  empty={t('notifications.noneFound')}
                  highlighted={highlighted}
                  isUnread={isUnread}
                  onMarkRead={(item) => void markOneRead(item)}
                  onOpenItem={(item) => {
                    if (isUnread(item)) void markOneRead(item);
                    setShowAll(false);
                  }}
                />
              )}
            </div>
            <div className="flex justify-end">
              <Dialog.Close asChild>
                <Button variant="secondary">{t('notifications.close')}</Button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}

/** Asks for notifications on this device (a phone as much as a desktop) only when the user chooses to (a browser asks once; a prompt right after sign-in is mostly refused). */
function DesktopNotificationsItem() {
  const { t } = useTranslation();
  const supported = typeof window !== 'undefined' && 'Notification' in window && window.isSecureContext;
  const [permission, setPermission] = useState(() => (supported ? Notification.permission : 'denied'));
  if (!supported || permission !== 'default') return null;
  return (
    <Button variant="ghost" className="w-full" onClick={() => void Notification.requestPermission().then(setPermission, () => undefined)}>
      {t('account.enableDesktop')}
    </Button>
  );
}

function NotificationList({
  items,
  empty,
  highlighted,
  isUnread,
  onMarkRead,
  onOpenItem,
}: {
  items: BellItem[];
  empty: string;
  highlighted: ReadonlySet<string>;
  isUnread: (item: BellItem) => boolean;
  onMarkRead: (item: BellItem) => void;
  onOpenItem: (item: BellItem) => void;
}) {
  const { t } = useTranslation();
  const href = useSubtaskHref();
  if (items.length === 0) return <p className="p-4 text-center text-sm text-slate-500">{empty}</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {items.map((item) => {
        const style = TYPE_STYLE[item.type] ?? DEFAULT_STYLE;
        return (
          <li key={item.key} data-testid="notification-item" data-type={item.type} data-highlighted={highlighted.has(item.key) || undefined} className={`flex gap-3 p-3 ${highlighted.has(item.key) ? 'bg-brand-50' : ''}`}>
            <span className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${style.tone}`} aria-hidden>
              <Icon name={style.icon} className="h-4 w-4" />
            </span>
            <span className="min-w-0 flex-1 text-sm">
              {item.subtaskId === null ? (
                <span className="block break-words text-slate-800">
                  <TextWithEmails text={item.message} />
                </span>
              ) : (
                <Link to={href(item.subtaskId)} onClick={() => onOpenItem(item)} className="block break-words text-slate-800 underline-offset-2 hover:text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
                  <TextWithEmails text={item.message} />
                </Link>
              )}
              <span className="block text-xs text-slate-600">
                {item.createdBy === SYSTEM_AUTHOR ? t('notifications.system') : item.createdBy} · {formatDateTime(item.createdAt)}
              </span>
              {/* Under the message, so a long label (German's) does not narrow it on a phone. */}
              {isUnread(item) && (
                <button
                  type="button"
                  onClick={() => onMarkRead(item)}
                  className="-ml-1 mt-0.5 inline-flex min-h-9 items-center rounded-md px-1.5 text-xs font-semibold text-brand-700 hover:bg-brand-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                  aria-label={t('notifications.markReadSubject', { subject: item.message })}
                >
                  {t('notifications.markRead')}
                </button>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
