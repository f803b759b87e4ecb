import OpenSeadragon from 'openseadragon';
import { pinColour, type PinColour, type SheetDetail, type SheetPin } from '@siteboard/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/form-field';
import { SUBTASK_PARAM } from '../../../components/ui/subtask-link';
import { api } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';

/** A pin's colour by what it shows: the same four as the lists' badges. */
const PIN_CLASSES: Record<PinColour, string> = {
  ongoing: 'bg-sky-600',
  pending_approval: 'bg-amber-500',
  completed: 'bg-emerald-600',
  overdue: 'bg-red-600',
};
const COLOURS = Object.keys(PIN_CLASSES) as PinColour[];

export interface PlacePin {
  subtaskId: number;
  name: string;
  /** Called with the point the person tapped, relative to the sheet's width and height. */
  place: (x: number, y: number) => void;
}

/**
 * A sheet in a deep-zoom viewer (OpenSeadragon, BSD-3): the tiles in view only, loaded with the
 * bearer token; pins drawn on top, coloured by status and filtered by status and assignee; a tap
 * on a pin opens its subtask's drawer. With `placing`, the next tap on the sheet places that pin.
 */
export function SheetViewer({ sheet, pins, today, placing }: { sheet: SheetDetail; pins: SheetPin[]; today: string; placing: PlacePin | null }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const placingRef = useRef(placing);
  placingRef.current = placing;
  const [, setParams] = useSearchParams();
  const [colour, setColour] = useState<PinColour | ''>('');
  const [assignee, setAssignee] = useState('');
  const [opened, setOpened] = useState(false);

  const assignees = useMemo(() => {
    const people = new Map<number, string>();
    for (const pin of pins) if (pin.assigned_to) people.set(pin.assigned_to.id, pin.assigned_to.full_name || pin.assigned_to.email);
    return [...people.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [pins]);
  const shown = pins.filter((pin) => (!colour || pinColour(pin, today) === colour) && (!assignee || String(pin.assigned_to?.id) === assignee));

  useEffect(() => {
    if (!element.current || !sheet.tile_url_template || !sheet.width || !sheet.height) return;
    const template = sheet.tile_url_template;
    let sentToken = storage.token ?? '';
    const created = OpenSeadragon({
      element: element.current,
      tileSources: {
        width: sheet.width,
        height: sheet.height,
        tileSize: sheet.tile_size,
        tileOverlap: 0,
        minLevel: 0,
        maxLevel: sheet.max_level ?? undefined,
        getTileUrl: (level: number, x: number, y: number) => template.replace('{level}', String(level)).replace('{col}', String(x)).replace('{row}', String(y)),
      } as unknown as OpenSeadragon.TileSourceOptions,
      loadTilesWithAjax: true,
      ajaxHeaders: { Authorization: `Bearer ${sentToken}` },
      showNavigationControl: false,
      gestureSettingsMouse: { clickToZoom: false },
      gestureSettingsTouch: { pinchToZoom: true, clickToZoom: false, dblClickToZoom: true },
      maxZoomPixelRatio: 2,
      visibilityRatio: 0.5,
    });
    created.addHandler('canvas-click', (event) => {
      const place = placingRef.current;
      if (!place || !event.quick) return;
      const point = created.viewport.viewerElementToImageCoordinates(event.position);
      const x = point.x / sheet.width!;
      const y = point.y / sheet.height!;
      if (x >= 0 && x <= 1 && y >= 0 && y <= 1) place.place(x, y);
    });
    // An access token lasts 15 minutes and OpenSeadragon sends the one it was given: when tiles start
    // failing, one call through the API client refreshes the session, then the tiles are asked again.
    let refreshing = false;
    created.addHandler('tile-load-failed', () => {
      if (refreshing || !navigator.onLine) return;
      refreshing = true;
      void api(`/api/sheets/${sheet.id}/`)
        .then(() => {
          const token = storage.token ?? '';
          if (token === sentToken) return;
          sentToken = token;
          created.setAjaxHeaders({ Authorization: `Bearer ${token}` });
          created.world.getItemAt(0)?.reset();
        })
        .catch(() => {})
        .finally(() => (refreshing = false));
    });
    created.addOnceHandler('open', () => setOpened(true));
    viewer.current = created;
    return () => {
      created.destroy();
      viewer.current = null;
      setOpened(false);
    };
  }, [sheet.id, sheet.tile_url_template, sheet.width, sheet.height, sheet.tile_size, sheet.max_level]);

  // The pins as overlays, placed in the sheet's own coordinates: they stay on their spot at every zoom.
  useEffect(() => {
    const current = viewer.current;
    if (!current || !opened || !sheet.width) return;
    const elements = shown.map((pin) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `h-7 w-7 -translate-x-1/2 -translate-y-full rounded-full rounded-bl-none border-2 border-white shadow-md ${PIN_CLASSES[pinColour(pin, today)]} focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600`;
      button.style.transform = 'rotate(-45deg)';
      button.setAttribute('aria-label', t('drawings.pin', { name: pin.name, status: t(`drawings.colour.${pinColour(pin, today)}`) }));
      button.dataset.subtaskId = String(pin.subtask_id);
      // OpenSeadragon would take the tap for a pan: the pin's own click opens its drawer.
      new OpenSeadragon.MouseTracker({
        element: button,
        clickHandler: () =>
          setParams((params) => {
            const next = new URLSearchParams(params);
            next.set(SUBTASK_PARAM, String(pin.subtask_id));
            return next;
          }),
      });
      current.addOverlay({ element: button, location: new OpenSeadragon.Point(pin.x, (pin.y * sheet.height!) / sheet.width!), placement: OpenSeadragon.Placement.BOTTOM });
      return button;
    });
    return () => {
      for (const pinElement of elements) current.removeOverlay(pinElement);
    };
  }, [shown, opened, sheet.width, sheet.height, today, t, setParams]);

  const zoom = (factor: number) => viewer.current?.viewport.zoomBy(factor).applyConstraints();

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <SelectField label={t('drawings.filterStatus')} value={colour} onChange={(event) => setColour(event.target.value as PinColour | '')}>
          <option value="">{t('drawings.allStatuses')}</option>
          {COLOURS.map((value) => (
            <option key={value} value={value}>
              {t(`drawings.colour.${value}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('drawings.filterAssignee')} value={assignee} onChange={(event) => setAssignee(event.target.value)}>
          <option value="">{t('drawings.everyone')}</option>
          {assignees.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </SelectField>
        <div className="flex gap-2">
          <Button variant="secondary" aria-label={t('drawings.zoomIn')} onClick={() => zoom(1.5)}>
            +
          </Button>
          <Button variant="secondary" aria-label={t('drawings.zoomOut')} onClick={() => zoom(1 / 1.5)}>
            −
          </Button>
          <Button variant="secondary" onClick={() => viewer.current?.viewport.goHome()}>
            {t('drawings.wholeSheet')}
          </Button>
        </div>
      </div>
      {placing && (
        <p role="status" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
          {t('drawings.tapToPlace', { name: placing.name })}
        </p>
      )}
      <div
        ref={element}
        role="application"
        aria-label={t('drawings.viewerLabel', { name: sheet.name, version: sheet.version })}
        data-testid="sheet-viewer"
        className="h-[65vh] min-h-80 w-full touch-none overflow-hidden rounded-2xl bg-slate-100 ring-1 ring-slate-200"
      />
      <ul className="flex flex-wrap gap-3 text-xs text-slate-600" aria-label={t('drawings.legend')}>
        {COLOURS.map((value) => (
          <li key={value} className="flex items-center gap-1.5">
            <span className={`inline-block h-3 w-3 rounded-full ${PIN_CLASSES[value]}`} aria-hidden="true" />
            {t(`drawings.colour.${value}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
