import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ShowMore } from '../../../components/ui/show-more';
import type { PagedList } from '../../../lib/lists';
import { SUBTASK_DRAG_TYPE } from './subtask-drag';

export interface UnpinnedSubtask {
  id: number;
  name: string;
  major: string;
}

/**
 * The project's subtasks on no sheet yet, beside the viewer: dragged onto the sheet (a mouse), or
 * "Place on sheet" then a tap where it goes (a finger), or the arrow keys and Enter on the
 * viewer's marker, which has the keyboard then (a keyboard, a screen reader). A page of
 * them, matching the search above the sheet, and "Show More".
 */
export function UnpinnedSubtasks({ subtasks, list, searching, placing, onPlace }: { subtasks: UnpinnedSubtask[]; list: PagedList; searching: boolean; placing: number | null; onPlace: (id: number | null) => void }) {
  const listId = useId();
  const { t } = useTranslation();
  return (
    <section aria-labelledby="unpinned-heading" className="space-y-2 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <h3 id="unpinned-heading" className="font-semibold text-slate-900">
        {t('drawings.unpinned')}
      </h3>
      {subtasks.length === 0 ? (
        <p className="text-sm text-slate-600">{searching ? t('drawings.unpinnedNoMatch') : t('drawings.unpinnedNone')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">{t('drawings.unpinnedHint')}</p>
          {/* Beside the sheet (lg) the list scrolls within the column, with a little room so its buttons' edges show; on a
              phone it is part of the page, which scrolls: a box scrolling inside a scrolling page cut its last row mid-line. */}
          <ul className="divide-y divide-slate-200 px-1 lg:max-h-72 lg:overflow-y-auto">
            {subtasks.map((subtask) => (
              <li
                key={subtask.id}
                draggable
                onDragStart={(event) => {
                  event.dataTransfer.setData(SUBTASK_DRAG_TYPE, String(subtask.id));
                  event.dataTransfer.effectAllowed = 'move';
                }}
                className="flex cursor-grab flex-wrap items-center justify-between gap-2 py-2"
              >
                <span className="min-w-0 flex-1 break-words text-sm">
                  <span id={`${listId}-${subtask.id}`} className="font-medium text-slate-900">
                    {subtask.name}
                  </span>
                  <span className="block text-xs text-slate-600">{subtask.major}</span>
                </span>
                {placing === subtask.id ? (
                  <Button size="sm" variant="ghost" onClick={() => onPlace(null)}>
                    {t('drawings.cancel')}
                  </Button>
                ) : (
                  <Button size="sm" variant="secondary" aria-describedby={`${listId}-${subtask.id}`} onClick={() => onPlace(subtask.id)}>
                    {t('drawings.placeOnSheet')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <ShowMore list={list} />
        </>
      )}
    </section>
  );
}
