import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

/** The query parameter that opens a subtask over any screen: its address can be shared and reloaded. */
export const SUBTASK_PARAM = 'subtask';

/** Where a subtask opens from the current screen: the same screen with its drawer on top. */
export function useSubtaskHref() {
  const [params] = useSearchParams();
  return (id: number) => {
    const next = new URLSearchParams(params);
    next.set(SUBTASK_PARAM, String(id));
    return `?${next.toString()}`;
  };
}

/** A subtask's name that opens it; `nameId` names the name itself, for the row's buttons to be described by (not "Open …", the link's name). */
export function SubtaskLink({ subtask, nameId }: { subtask: { id: number; name: string }; nameId?: string }) {
  const { t } = useTranslation();
  const href = useSubtaskHref();
  return (
    <Link to={href(subtask.id)} className="break-words font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600" aria-label={t('record.open', { name: subtask.name })}>
      <span id={nameId}>{subtask.name}</span>
    </Link>
  );
}
