import { DONE_AT_SKEW_MS, type ActivityEntry } from '@siteboard/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../../components/ui/icons';
import { formatDate, formatDateTime, formatDateTimeAfter } from '../../../lib/format';
import { PhotoStrip } from '../../../components/ui/photos';
import { WaitingStatus } from '../../../components/waiting-photos';
import { useWaitingWrites } from '../../../lib/waiting-writes';

const ICONS: Record<ActivityEntry['type'], IconName> = { created: 'createTask', edited: 'tasks', status_changed: 'send', comment: 'comment', attachment: 'photo', closed_unfinished: 'declined', reopened: 'projects' };

type Person = { email: string; full_name: string | null };

/** A person as the timeline names them: by their name as it is now, else their e-mail. */
const named = (person: Person | null | undefined, t: TFunction) => person?.full_name || person?.email || t('record.someone');

/** What an entry says happened, naming who did it. */
function headline(entry: ActivityEntry, t: TFunction): string {
  const actor = named(entry.actor, t);
  if (entry.type === 'closed_unfinished') return t('record.entry.closedUnfinished', { actor, status: t(`status.${entry.to ?? 'ongoing'}`) });
  if (entry.type === 'reopened') return t('record.entry.reopened', { actor });
  if (entry.type !== 'status_changed') return t(`record.entry.${{ created: 'created', edited: 'edited', comment: 'comment', attachment: 'photo' }[entry.type]}`, { actor });
  const move = `${entry.from}>${entry.to}`;
  if (move === 'ongoing>pending_approval') return t('record.entry.submitted', { actor });
  if (move === 'pending_approval>completed') return t('record.entry.approved', { actor });
  if (move === 'pending_approval>ongoing') return t('record.entry.declined', { actor });
  return t('record.entry.status', { actor, from: t(`status.${entry.from}`), to: t(`status.${entry.to}`) });
}

/**
 * When the entry's work was done and, when it reached the server notably later (made offline,
 * decision record 109), when it synced: "10:02 · synced 16:40". Entries stay in the order they
 * arrived, the order everyone else learned of them in.
 */
function EntryTime({ entry }: { entry: ActivityEntry }) {
  const { t } = useTranslation();
  const syncedLater = Date.parse(entry.created_at) - Date.parse(entry.done_at) > DONE_AT_SKEW_MS;
  return (
    <p className="text-xs text-slate-500">
      <time dateTime={entry.done_at}>{formatDateTime(entry.done_at)}</time>
      {syncedLater && (
        <>
          {' · '}
          <time dateTime={entry.created_at}>{t('record.synced', { time: formatDateTimeAfter(entry.created_at, entry.done_at) })}</time>
        </>
      )}
    </p>
  );
}

/** An edited field's value as people read it. */
function shown(field: string, value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return t('record.empty');
  if (field === 'assigned_to') return named(value as Person, t);
  if (field === 'priority') return t(`priority.${String(value)}`);
  if (field === 'due_date') return formatDate(String(value)) ?? String(value);
  return String(value);
}

/** A subtask's history, oldest first: who did what when, what they said, and the photos. */
export function SubtaskTimeline({ entries, subject }: { entries: ActivityEntry[]; subject: string }) {
  const { t } = useTranslation();
  return (
    <ol className="space-y-3" aria-label={t('record.timeline')}>
      {entries.map((entry) => {
        const said = entry.type === 'comment' ? entry.text : entry.comment;
        const declined = entry.type === 'status_changed' && entry.from === 'pending_approval' && entry.to === 'ongoing';
        return (
          <li key={entry.id} className="flex gap-3">
            <span className={`mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${declined ? 'bg-red-100 text-red-700' : 'bg-slate-100 text-slate-600'}`} aria-hidden>
              <Icon name={declined ? 'declined' : ICONS[entry.type]} className="h-4 w-4" />
            </span>
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <p className="break-words text-slate-800">{headline(entry, t)}</p>
              <EntryTime entry={entry} />
              {said && <p className={`whitespace-pre-line break-words rounded-lg px-3 py-2 ${declined ? 'bg-red-50 text-red-900' : 'bg-slate-50 text-slate-800'}`}>{said}</p>}
              {entry.changes && (
                <ul className="space-y-0.5 text-slate-600">
                  {Object.entries(entry.changes).map(([field, change]) => (
                    <li key={field} className="break-words">
                      {t('record.change', { field: t(`record.field.${field}`), from: shown(field, change.from, t), to: shown(field, change.to, t) })}
                    </li>
                  ))}
                </ul>
              )}
              {entry.attachment && <PhotoStrip photos={[entry.attachment]} subject={subject} />}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The comments on this subtask made on this device that have not reached the server yet (no
 * signal), after the timeline, marked as waiting (or refused, with the server's reason): a comment
 * sent in a basement stays in sight instead of seeming lost, and nobody types it again.
 */
export function WaitingComments({ subtaskId }: { subtaskId: number }) {
  const { t } = useTranslation();
  const writes = useWaitingWrites();
  const path = `/api/subtasks/${subtaskId}/comments/`;
  const comments = writes.filter((write) => write.method === 'POST' && write.path === path);
  if (comments.length === 0) return null;
  return (
    <ol className="space-y-3" aria-label={t('offline.waiting', { count: comments.length })}>
      {comments.map((write) => (
        <li key={write.id} className="flex gap-3">
          <span className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-800" aria-hidden>
            <Icon name="comment" className="h-4 w-4" />
          </span>
          <div className="min-w-0 flex-1 space-y-1 text-sm">
            <WaitingStatus write={write} />
            <p className="whitespace-pre-line break-words rounded-lg border border-dashed border-amber-300 bg-amber-50 px-3 py-2 text-slate-800">{String((write.json as { text?: unknown } | undefined)?.text ?? '')}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
