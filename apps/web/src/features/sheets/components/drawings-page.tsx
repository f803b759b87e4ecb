import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { DailyLogProject, Sheet, Subtask } from '@siteboard/shared';
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { DisclosureButton } from '../../../components/ui/disclosure-button';
import { LazyPart } from '../../../components/ui/lazy-part';
import { SearchBox } from '../../../components/ui/search-box';
import { PageTitle } from '../../../components/ui/page-title';
import { ShowMore } from '../../../components/ui/show-more';
import type { ListPage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useDebouncedValue } from '../../../lib/lists';
import { failureDetail, useFailureMessage, useQueryFailure } from '../../../lib/failure-message';
import { loadOnApproach, preloadableLazy } from '../../../lib/preloadable-lazy';
import { useDeleteSheet } from '../api/delete-sheet';
import { searchPinMajorTasksQuery, usePinCandidates } from '../api/get-project-subtasks';
import { useSheet } from '../api/get-sheet';
import { useSheetPins } from '../api/get-sheet-pins';
import { useSheets } from '../api/get-sheets';
import { usePinSubtask } from '../api/pin-subtask';
import { useRenameSheet } from '../api/rename-sheet';
import { useUploadSheetVersion } from '../api/upload-sheet-version';
import { useUploadSheets } from '../api/upload-sheets';
import { NewPinnedSubtask } from './new-pinned-subtask';
import type { PlacePin, SheetEditing } from './sheet-viewer';
import { UnpinnedSubtasks } from './unpinned-subtasks';
import { pendingPin, useShownPins } from './use-shown-pins';

const ACCEPT = 'application/pdf,.pdf,image/jpeg,image/png,image/webp';

/**
 * The deep-zoom viewer is a chunk of its own: OpenSeadragon is two thirds of the page's code, and
 * the list of sheets, what the page opens on, does not need it. It loads as a sheet's name is
 * pointed at or focused, and as an opened sheet asks for its details, beside that call.
 */
const viewer = preloadableLazy(async () => (await import('./sheet-viewer')).SheetViewer);
const loadViewer = () => void viewer.load().catch(() => undefined);

/** A file input behind a button: picking a file calls `onFile` once. */
function FileButton({ label, onFile, disabled, variant = 'primary', size }: { label: string; onFile: (file: File) => void; disabled?: boolean; variant?: 'primary' | 'secondary'; size?: 'sm' }) {
  const input = useRef<HTMLInputElement>(null);
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <>
      <Button variant={variant} size={size} disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </Button>
      <input ref={input} type="file" accept={ACCEPT} className="sr-only" tabIndex={-1} aria-label={label} onChange={picked} />
    </>
  );
}

function StatusText({ sheet }: { sheet: Sheet }) {
  const { t } = useTranslation();
  if (sheet.status === 'failed') return <span className="text-red-700">{t('drawings.failed', { reason: sheet.failure })}</span>;
  if (sheet.status === 'processing') return <span className="text-amber-700">{t('drawings.processing')}</span>;
  return <span className="text-emerald-700">{t('drawings.ready')}</span>;
}

/**
 * A project's drawings (issue 43): its sheets with their rendering state; its manager and admins
 * upload, rename, version and delete them; a sheet opens in the deep-zoom viewer with its pins.
 * Which project and sheet are in the address (`?project=&sheet=`), so a link opens a given sheet.
 * Its projects are those the person may open: the daily log's list (`projectsQuery`, the daily log
 * feature's query, given by the page: one answer under one key, which the area asks ahead).
 */
export function DrawingsPage({ projectsQuery }: { projectsQuery: UseQueryOptions<ListPage<DailyLogProject>, Error, ListPage<DailyLogProject>, string[]> }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const projects = useQuery(projectsQuery);
  const projectsFailure = useQueryFailure(projects.error, { other: 'drawings.loadFailed' });
  const choices = projects.data?.items ?? [];
  const project = choices.find((choice) => choice.id === Number(params.get('project'))) ?? choices[0] ?? null;
  const sheetId = Number(params.get('sheet')) || null;

  const choose = (next: { project?: number; sheet?: number | null }) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next.project !== undefined) {
        updated.set('project', String(next.project));
        updated.delete('sheet');
      }
      if (next.sheet !== undefined) {
        if (next.sheet === null) updated.delete('sheet');
        else updated.set('sheet', String(next.sheet));
      }
      return updated;
    });

  return (
    <>
      <PageTitle>{t('drawings.title')}</PageTitle>
      <div className="space-y-4">
        {projectsFailure && <Alert tone="error">{projectsFailure}</Alert>}
        <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
          <SelectField label={t('drawings.project')} value={project?.id ?? ''} disabled={choices.length === 0} onChange={(event) => choose({ project: Number(event.target.value) })}>
            {choices.length === 0 && <option value="">{projects.isPending ? t('app.loading') : t('drawings.noProjects')}</option>}
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.name}
              </option>
            ))}
          </SelectField>
        </div>
        {project && (sheetId ? <OpenedSheet key={sheetId} project={project} sheetId={sheetId} role={user?.role} onClose={() => choose({ sheet: null })} onOpen={(id) => choose({ sheet: id })} /> : <SheetList project={project} onOpen={(id) => choose({ sheet: id })} />)}
      </div>
    </>
  );
}

function SheetList({ project, onOpen }: { project: DailyLogProject; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const sheets = useSheets(project.id);
  const failure = useQueryFailure(sheets.query.error, { other: 'drawings.loadFailed' });
  const failureMessage = useFailureMessage();
  const upload = useUploadSheets();
  const uploadVersion = useUploadSheetVersion();
  const rename = useRenameSheet();
  const remove = useDeleteSheet();
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirm({ title: t('drawings.deleteTitle'), confirmLabel: t('drawings.delete'), cancelLabel: t('drawings.cancel') });
  const keeps = project.may_keep && project.status !== 'completed';
  const failed = (other: string) => (cause: unknown) => setError(failureMessage(cause, { other }));

  return (
    <section className="space-y-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" aria-labelledby="sheets-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sheets-heading" className="text-lg font-semibold text-slate-900">
          {t('drawings.sheets')}
        </h2>
        {keeps && <FileButton label={upload.isPending ? t('drawings.uploading') : t('drawings.upload')} disabled={upload.isPending} onFile={(file) => upload.mutate({ projectId: project.id, file }, { onSuccess: () => setError(null), onError: failed('drawings.uploadFailed') })} />}
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      {failure && <Alert tone="error">{failure}</Alert>}
      {sheets.total === 0 && <p className="text-sm text-slate-600">{keeps ? t('drawings.emptyKeeper') : t('drawings.empty')}</p>}
      <ul className="divide-y divide-slate-100">
        {sheets.items.map((sheet) => (
          <li key={sheet.id} className="flex flex-wrap items-center gap-3 py-3">
            <div className="min-w-0 flex-[1_1_14rem]">
              {renaming?.id === sheet.id ? (
                <form
                  className="flex flex-wrap items-end gap-2"
                  onSubmit={(event) => {
                    event.preventDefault();
                    rename.mutate({ sheetId: sheet.id, name: renaming.name }, { onSuccess: () => setRenaming(null), onError: failed('drawings.renameFailed') });
                  }}
                >
                  <TextField label={t('drawings.name')} value={renaming.name} maxLength={200} onChange={(event) => setRenaming({ id: sheet.id, name: event.target.value })} />
                  <Button type="submit" size="sm">
                    {t('drawings.save')}
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setRenaming(null)}>
                    {t('drawings.cancel')}
                  </Button>
                </form>
              ) : (
                <button type="button" className="break-words text-left font-medium text-brand-700 underline-offset-2 hover:underline disabled:text-slate-700 disabled:no-underline" disabled={sheet.status !== 'ready'} {...loadOnApproach(viewer.load)} onClick={() => onOpen(sheet.id)}>
                  {sheet.name}
                </button>
              )}
              <p className="text-xs text-slate-600">
                {t('drawings.pageVersion', { page: sheet.page_number, version: sheet.version })} · <StatusText sheet={sheet} />
              </p>
            </div>
            {keeps && renaming?.id !== sheet.id && (
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" size="sm" onClick={() => setRenaming({ id: sheet.id, name: sheet.name })}>
                  {t('drawings.rename')}
                </Button>
                <FileButton variant="secondary" size="sm" label={t('drawings.newVersion')} disabled={uploadVersion.isPending} onFile={(file) => uploadVersion.mutate({ sheetId: sheet.id, file }, { onError: failed('drawings.uploadFailed') })} />
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={async () => {
                    if (await confirm.ask(t('drawings.deleteText', { name: sheet.name }))) remove.mutate(sheet.id, { onError: failed('drawings.deleteFailed') });
                  }}
                >
                  {t('drawings.delete')}
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <ShowMore list={sheets} />
      {confirm.dialog}
    </section>
  );
}

function OpenedSheet({ project, sheetId, role, onClose, onOpen }: { project: DailyLogProject; sheetId: number; role: string | undefined; onClose: () => void; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const sheet = useSheet(sheetId);
  // The viewer's code downloads while the sheet's details are asked for, not after them.
  useEffect(loadViewer, []);
  const failure = useQueryFailure(sheet.error, { other: 'drawings.loadFailed' });
  const pins = useSheetPins(sheetId);
  // Pins are edits of the subtask (canMoveSubtaskPin): the project's manager places them; a pin's may_move says who moves it.
  const places = role === 'manager' && project.may_keep && project.status !== 'completed';
  // What the manager may pin, a page at a time and searched as they type: the subtasks on no sheet
  // (the list beside the sheet) and any of them (the dropdown, which also moves a pin to this sheet).
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search.trim());
  const unpinnedList = usePinCandidates(project.id, settledSearch, true, places);
  const anyList = usePinCandidates(project.id, settledSearch, false, places);
  const pin = usePinSubtask();
  const failureMessage = useFailureMessage();
  // A subtask's id, or 'new': a new subtask where the sheet is tapped next.
  const [placing, setPlacing] = useState<number | 'new' | null>(null);
  // Placing began with a button (the list's "Place on sheet"): the keyboard goes to the sheet's marker.
  const [placingByButton, setPlacingByButton] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const toolsId = useId();
  const viewerPlace = useRef<HTMLDivElement>(null);
  const [newAt, setNewAt] = useState<{ x: number; y: number; byKeyboard?: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const detail = sheet.data;
  const latest = detail ? detail.versions[detail.versions.length - 1] : undefined;
  const isLatest = detail !== undefined && latest?.id === detail.id;
  // Every subtask the pickers have shown, whatever is searched now: a pin placed for one offline is
  // drawn from it until the server has it, though a later search (answered from the cache without a
  // signal) no longer lists it.
  const seen = useRef(new Map<number, Subtask>());
  const known = useMemo(() => {
    for (const subtask of [...unpinnedList.items, ...anyList.items]) seen.current.set(subtask.id, subtask);
    return new Map(seen.current);
  }, [unpinnedList.items, anyList.items]);
  const { shown: shownPins, refused, waiting } = useShownPins(sheetId, pins.data, known);
  const candidate = (subtask: Subtask) => {
    const change = pendingPin(waiting, subtask.id);
    const pinned = change ? change.pin !== null : subtask.pin !== null;
    return { id: subtask.id, name: subtask.name, major: subtask.major_task.name, pinned };
  };
  const candidates = anyList.items.map(candidate);
  const unpinned = unpinnedList.items.map(candidate).filter((shown) => !shown.pinned);
  const placedSubtask = typeof placing === 'number' ? known.get(placing) : undefined;
  const placed = placedSubtask && candidate(placedSubtask);
  // A pin already on the sheet moves at once (usePinSubtask); refused, it goes back and says so.
  const savePin = (subtaskId: number, subject: string, x: number, y: number) => {
    if (!detail) return;
    const moving = shownPins.some((shown) => shown.subtask_id === subtaskId);
    pin.mutate(
      { subtaskId, subject, pin: { sheet_id: detail.id, x, y } },
      {
        onSuccess: () => setError(null),
        onError: (cause) => {
          const message = failureMessage(cause, { other: 'drawings.pinFailed' });
          setError(moving ? t('drawings.moveRefused', { name: subject, detail: failureDetail(cause) }) : message);
        },
      },
    );
  };
  const cancel = () => setPlacing(null);
  const placePin: PlacePin | null =
    placing === 'new' && detail
      ? { subtaskId: 0, name: t('drawings.aNewSubtask'), place: (x, y, byKeyboard) => setNewAt({ x, y, byKeyboard }), cancel }
      : placed && detail
      ? {
          subtaskId: placed.id,
          name: placed.name,
          place: (x, y) => {
            setPlacing(null);
            savePin(placed.id, placed.name, x, y);
          },
          cancel,
          focusMarker: placingByButton,
        }
      : null;
  // Pins move on the latest version of a project still running; each pin says whether this caller may move it (may_move).
  const editing: SheetEditing | undefined =
    isLatest && project.status !== 'completed'
      ? {
          createAt: places && !newAt ? (x, y) => setNewAt({ x, y }) : null,
          move: (moved, x, y) => savePin(moved.subtask_id, moved.name, x, y),
          drop: (id, x, y) => {
            const dropped = known.get(id);
            if (dropped) savePin(id, dropped.name, x, y);
          },
        }
      : undefined;

  return (
    <section className="space-y-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-5" aria-labelledby="sheet-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sheet-heading" className="text-lg font-semibold text-slate-900">
            {detail?.name ?? t('app.loading')}
          </h2>
          {detail && (
            <p className="text-sm text-slate-600" data-testid="sheet-version">
              {t('drawings.showsVersion', { version: detail.version, count: detail.versions.length })}
              {!isLatest && ` · ${t('drawings.oldVersion')}`}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {detail && detail.versions.length > 1 && (
            <SelectField label={t('drawings.version')} value={detail.id} onChange={(event) => onOpen(Number(event.target.value))}>
              {detail.versions.map((version) => (
                <option key={version.id} value={version.id}>
                  {t('drawings.versionOption', { version: version.version })}
                </option>
              ))}
            </SelectField>
          )}
          <Button variant="secondary" onClick={onClose}>
            {t('drawings.backToList')}
          </Button>
        </div>
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      {refused.map((change) => (
        <Alert key={change.subtaskId} tone="error">
          {t('drawings.moveRefused', { name: change.subject ?? known.get(change.subtaskId)?.name ?? '', detail: change.refused })}
        </Alert>
      ))}
      {/* On a phone, pinning (search, choice, how to add one) waits behind a button, so the sheet starts on the
          first screen; from `sm` up it is always shown. The list under the sheet places subtasks too. */}
      {places && isLatest && (
        <div className="space-y-3">
          <DisclosureButton open={toolsOpen} controls={toolsId} onToggle={() => setToolsOpen(!toolsOpen)} className="rounded-lg px-3 py-2 text-sm font-medium text-slate-900 ring-1 ring-slate-200 sm:hidden">
            {t('drawings.placeTools')}
          </DisclosureButton>
          <div id={toolsId} className={`space-y-3 ${toolsOpen ? '' : 'max-sm:hidden'}`}>
            <div className="grid gap-3 sm:grid-cols-2 sm:items-end">
              <SearchBox className="" label={t('drawings.searchSubtasks')} placeholder={t('drawings.searchSubtasksPlaceholder')} value={search} onChange={setSearch} />
              <SelectField
                label={t('drawings.placeSubtask')}
                value={placing ?? ''}
                hint={(anyList.total ?? 0) > candidates.length ? t('list.narrow', { shown: candidates.length, total: anyList.total }) : undefined}
                onChange={(event) => {
                  setPlacingByButton(false);
                  setPlacing(event.target.value === 'new' ? 'new' : Number(event.target.value) || null);
                }}
              >
                <option value="">{t('drawings.placeNone')}</option>
                <option value="new">{t('drawings.placeNew')}</option>
                {placed && !candidates.some((shown) => shown.id === placed.id) && (
                  <option value={placed.id}>
                    {placed.major} · {placed.name}
                  </option>
                )}
                {candidates.map((shown) => (
                  <option key={shown.id} value={shown.id}>
                    {shown.major} · {shown.name}
                  </option>
                ))}
              </SelectField>
            </div>
            {detail?.status === 'ready' && <p className="text-sm text-slate-600">{t('drawings.pressToCreate')}</p>}
          </div>
        </div>
      )}
      {detail?.status === 'processing' && <p className="text-sm text-amber-700">{t('drawings.processing')}</p>}
      {detail?.status === 'failed' && <Alert tone="error">{t('drawings.failed', { reason: detail.failure })}</Alert>}
      {detail?.status === 'ready' && (
        <div className={places && isLatest ? 'grid gap-3 lg:grid-cols-[minmax(0,1fr)_18rem]' : undefined}>
          <div ref={viewerPlace} className="scroll-mt-20">
            {/* Until its code is there, the sheet's place in the viewer's size, so nothing below moves when it comes. */}
            <LazyPart fallback={<div className="h-[65vh] min-h-80 w-full rounded-2xl bg-slate-100 ring-1 ring-slate-200" />}>
              <viewer.Component sheet={detail} pins={shownPins} today={project.today} placing={newAt ? null : placePin} editing={editing} />
            </LazyPart>
          </div>
          {places && isLatest && (
            <UnpinnedSubtasks
              subtasks={unpinned}
              list={unpinnedList}
              searching={settledSearch !== ''}
              placing={typeof placing === 'number' ? placing : null}
              onPlace={(id) => {
                setPlacingByButton(true);
                setPlacing(id);
                // On a phone the list is below the sheet: the sheet comes into sight for the tap.
                if (id !== null) viewerPlace.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
              }}
            />
          )}
        </div>
      )}
      {detail && newAt && (
        <NewPinnedSubtask
          findMajorTasks={searchPinMajorTasksQuery(project.id)}
          pin={{ sheet_id: detail.id, x: newAt.x, y: newAt.y }}
          autoFocus={newAt.byKeyboard}
          today={project.today}
          projectManagerId={project.manager?.id ?? null}
          onDone={() => {
            setNewAt(null);
            setPlacing(null);
          }}
        />
      )}
    </section>
  );
}
