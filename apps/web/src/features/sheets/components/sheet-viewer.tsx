import OpenSeadragon from 'openseadragon';
import { pinColour, type PinColour, type SheetDetail, type SheetPin } from '@siteboard/shared';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Chevron } from '../../../components/ui/chevron';
import { DisclosureButton } from '../../../components/ui/disclosure-button';
import { SelectField } from '../../../components/ui/form-field';
import { SUBTASK_PARAM } from '../../../components/ui/subtask-link';
import { SUBTASK_DRAG_TYPE } from './subtask-drag';
import { api } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import type { ShownPin } from './use-shown-pins';

/** A pin's colour by what it shows: the same four as the lists' badges, and grey for work a completed project closed unfinished. */
const PIN_CLASSES: Record<PinColour, string> = {
  ongoing: 'bg-sky-600',
  pending_approval: 'bg-amber-500',
  completed: 'bg-emerald-600',
  overdue: 'bg-red-600',
  closed_unfinished: 'bg-slate-500',
};
const COLOURS = Object.keys(PIN_CLASSES) as PinColour[];
/**
 * A pin moved on this device and not yet sent: a dashed ring in a colour no pin has (amber would
 * read as "Pending Approval"), explained in the legend while one is drawn.
 */
const WAITING_RING = ['outline-dashed', 'outline-2', 'outline-offset-2', 'outline-violet-600'];

export interface PlacePin {
  subtaskId: number;
  name: string;
  /** Called with the point the person tapped (or put the keyboard's marker on), relative to the sheet's width and height. */
  place: (x: number, y: number, byKeyboard?: boolean) => void;
  /** Escape on the keyboard's marker: nothing is placed. */
  cancel: () => void;
  /** The keyboard goes to the marker at once (placing began with a button, not a list's choice). */
  focusMarker?: boolean;
}

/** The arrow keys' directions on the screen. */
const ARROWS: Record<string, readonly [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
/** How far (screen px) an arrow key moves a pin or the marker; with Shift, further. */
const STEP_PX = 8;
const BIG_STEP_PX = 48;

/** How long a finger rests on the sheet before it counts as a long-press (the platforms' own is ~500 ms). */
const LONG_PRESS_MS = 500;
/** A pointer that moves more than this (px) is panning or dragging, not pressing or tapping. */
const PRESS_SLOP = 10;

export interface SheetEditing {
  /** A long-press (touch) or a click (mouse) on the sheet with nothing being placed: a new subtask there. */
  createAt: ((x: number, y: number) => void) | null;
  /** A pin the caller may move (its `may_move`) was dragged to a new point. */
  move: (pin: SheetPin, x: number, y: number) => void;
  /** A subtask from the list beside the viewer was dropped on the sheet. */
  drop: (subtaskId: number, x: number, y: number) => void;
}

/**
 * A pointer pressed on a pin: its id, where it was pressed and last followed on the page (client
 * px), and whether it has gone further than a tap's slop (a drag) yet.
 */
interface DragPointer {
  id: number;
  from: { x: number; y: number };
  x: number;
  y: number;
  moved: boolean;
}
/**
 * A pin being moved and where it is drawn meanwhile, in the viewer's coordinates: `keyed` where the
 * arrow keys put it while they move it (until Enter or Escape), `pointer` while a pointer drags it.
 * Both at once: a drag begun on a pin the keys are moving goes on from where they put it.
 */
interface PinMove {
  subtaskId: number;
  at: OpenSeadragon.Point;
  keyed: OpenSeadragon.Point | null;
  pointer?: DragPointer;
}


/**
 * A sheet in a deep-zoom viewer (OpenSeadragon, BSD-3): the tiles in view only, loaded with the
 * bearer token; pins drawn on top, coloured by status and filtered by status and assignee; a tap
 * on a pin opens its subtask's drawer. With `placing`, the next tap on the sheet places that pin.
 * With `editing`: a long-press or click creates a subtask there, a pin the caller may move is
 * dragged (a drag that starts on it moves it, anywhere else it pans), a subtask is dropped on.
 * The keyboard does each of these too: the pins are buttons in reading order (Enter opens), the
 * arrow keys move one the caller may move (Enter puts it down, Escape back), and while placing a
 * marker in the middle of the view moves with them (Enter places there, Escape cancels). The
 * viewer's own keys (arrows pan, + and − zoom) stay for the sheet itself. A list below names
 * every pin shown.
 */
export function SheetViewer({ sheet, pins, today, placing, editing }: { sheet: SheetDetail; pins: ShownPin[]; today: string; placing: PlacePin | null; editing?: SheetEditing }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const placingRef = useRef(placing);
  placingRef.current = placing;
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const canEdit = editing !== undefined;
  const [, setParams] = useSearchParams();
  const [colour, setColour] = useState<PinColour | ''>('');
  const [assignee, setAssignee] = useState('');
  const [opened, setOpened] = useState(false);
  // The pin the keyboard is moving (its name), and the last place said to a screen reader.
  const [moving, setMoving] = useState<string | null>(null);
  const [announced, setAnnounced] = useState('');
  // A pin the keyboard may move has the keyboard: what its keys do is shown, not only said.
  const [focusedMovable, setFocusedMovable] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  // The keyboard's marker while placing: where it is, and what had the keyboard before it (Escape goes back there).
  const marker = useRef<{ key: string; at: OpenSeadragon.Point; origin: Element | null } | null>(null);
  // The overlay (`data-focus-key`) the keyboard goes back to once the overlays are drawn again.
  const refocus = useRef<string | null>(null);
  // The pin being moved, by the arrow keys or a pointer's drag, and where it has been put (the viewer's coordinates): the
  // pins are drawn again after every push, reload and change of the offline queue, and the move goes on across that.
  const pinMove = useRef<PinMove | null>(null);
  const hintId = useId();
  const movableHintId = useId();
  const listId = useId();
  const filtersId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const placingKey = placing ? `${placing.subtaskId}:${placing.name}` : null;

  const assignees = useMemo(() => {
    const people = new Map<number, string>();
    for (const pin of pins) if (pin.assigned_to) people.set(pin.assigned_to.id, pin.assigned_to.full_name || pin.assigned_to.email);
    return [...people.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [pins]);
  // In reading order, top to bottom then left to right: the pins' Tab order and their list's.
  const filtered = useMemo(
    () => pins.filter((pin) => (!colour || pinColour(pin, today) === colour) && (!assignee || String(pin.assigned_to?.id) === assignee)).sort((a, b) => a.y - b.y || a.x - b.x),
    [pins, colour, assignee, today],
  );
  // The pins are read again after every write, push and change of the offline queue, mostly the
  // same: the same pins are the same array, so the overlays (and the keyboard on one) are not drawn anew.
  const drawnPins = useRef(filtered);
  if (drawnPins.current !== filtered && !samePins(drawnPins.current, filtered)) drawnPins.current = filtered;
  const shown = drawnPins.current;
  // The router's setter changes with the address: held in a ref, the pins are not drawn anew when their drawer opens, and
  // the drawer gives the keyboard back to the pin it was opened from.
  const setParamsRef = useRef(setParams);
  setParamsRef.current = setParams;
  const openSubtask = useCallback(
    (id: number) =>
      setParamsRef.current((params) => {
        const next = new URLSearchParams(params);
        next.set(SUBTASK_PARAM, String(id));
        return next;
      }),
    [],
  );
  // Closed-unfinished work exists only on a completed project's sheet: offered in the filter and legend where a pin is.
  const colours = COLOURS.filter((value) => value !== 'closed_unfinished' || pins.some((pin) => pinColour(pin, today) === value));

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
    const relative = (position: OpenSeadragon.Point) => {
      const point = created.viewport.viewerElementToImageCoordinates(position);
      const x = point.x / sheet.width!;
      const y = point.y / sheet.height!;
      return x >= 0 && x <= 1 && y >= 0 && y <= 1 ? { x, y } : null;
    };
    created.addHandler('canvas-click', (event) => {
      if (!event.quick) return;
      const at = relative(event.position);
      if (!at) return;
      const place = placingRef.current;
      if (place) place.place(at.x, at.y);
      // A finger's tap pans and opens pins; a finger creates by a long-press (below), a mouse by a click.
      else if ((event as { pointerType?: string }).pointerType === 'mouse') editingRef.current?.createAt?.(at.x, at.y);
    });
    // A long-press: a finger that rests still; a pan, a second finger (a pinch) or lifting it first cancels it.
    let press: { timer: ReturnType<typeof setTimeout>; start: OpenSeadragon.Point } | null = null;
    const cancelPress = () => {
      if (press) clearTimeout(press.timer);
      press = null;
    };
    created.addHandler('canvas-press', (event) => {
      cancelPress();
      if ((event as { pointerType?: string }).pointerType !== 'touch' || !editingRef.current?.createAt) return;
      const start = event.position;
      press = {
        start,
        timer: setTimeout(() => {
          press = null;
          const at = relative(start);
          if (at) editingRef.current?.createAt?.(at.x, at.y);
        }, LONG_PRESS_MS),
      };
    });
    created.addHandler('canvas-drag', (event) => {
      if (press && press.start.distanceTo(event.position) > PRESS_SLOP) cancelPress();
    });
    created.addHandler('canvas-pinch', cancelPress);
    created.addHandler('canvas-release', cancelPress);
    created.addHandler('destroy', cancelPress);
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

  // The marker and the pins as overlays, placed in the sheet's own coordinates: they stay on their spot at every zoom.
  useEffect(() => {
    const current = viewer.current;
    if (!current || !opened || !sheet.width || !sheet.height) {
      // No viewer (a new sheet opening): nothing is being moved on it.
      pinMove.current = null;
      return;
    }
    const aspect = sheet.height / sheet.width;
    const onSheet = (point: OpenSeadragon.Point) => ({ x: Math.min(1, Math.max(0, point.x)), y: Math.min(1, Math.max(0, point.y / aspect)) });
    const say = (point: OpenSeadragon.Point) => {
      const { x, y } = onSheet(point);
      setAnnounced(t('drawings.position', { x: Math.round(x * 100), y: Math.round(y * 100) }));
    };
    /**
     * An arrow key moves what it is pressed on by a step of the screen (Shift: five), whatever the
     * zoom, kept on the sheet and in view; any other key is left to the browser and the viewer.
     */
    const stepped = (event: KeyboardEvent, from: OpenSeadragon.Point) => {
      const direction = ARROWS[event.key];
      if (!direction || event.altKey || event.ctrlKey || event.metaKey) return null;
      event.preventDefault();
      // The viewer's own keys would pan the sheet under it (and zoom with Shift).
      event.stopPropagation();
      const pixels = event.shiftKey ? BIG_STEP_PX : STEP_PX;
      const moved = from.plus(current.viewport.deltaPointsFromPixels(new OpenSeadragon.Point(direction[0] * pixels, direction[1] * pixels), true));
      const { x, y } = onSheet(moved);
      const to = new OpenSeadragon.Point(x, y * aspect);
      if (!current.viewport.getBounds(true).containsPoint(to)) current.viewport.panTo(to);
      return to;
    };
    const elements: HTMLElement[] = [];
    // The overlays are going (drawn again, or the viewer closes): the keyboard leaving the pin it moves does not end the move.
    let leaving = false;
    // The pin whose move goes on from before the pins were drawn again; a keyboard's needs the keyboard back on it.
    let resumed: { button: HTMLElement; byKeys: boolean; stop: () => void } | null = null;
    // A pin's pointer trackers, and the drag a drawing follows: ended with the drawing (the next one follows on).
    const trackers: OpenSeadragon.MouseTracker[] = [];
    const unfollow: (() => void)[] = [];

    const place = placingRef.current;
    if (place && placingKey) {
      // Where the keyboard's marker is: the middle of what is in view when placing begins, kept while pins are drawn again.
      const fresh = marker.current?.key !== placingKey;
      const centre = onSheet(current.viewport.getCenter(true));
      const kept = fresh || !marker.current ? { key: placingKey, at: new OpenSeadragon.Point(centre.x, centre.y * aspect), origin: place.focusMarker ? document.activeElement : null } : marker.current;
      marker.current = kept;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.focusKey = 'marker';
      button.dataset.testid = 'pin-marker';
      // A finger or a mouse goes through it to the sheet (a tap there places the pin); a keyboard or a screen reader presses it.
      button.className = 'pointer-events-none relative block h-10 w-10 rounded-full border-2 border-dashed border-brand-700 bg-white/40 shadow-[0_0_0_2px_white] focus:outline-none focus-visible:ring-4 focus-visible:ring-brand-600/60';
      button.innerHTML = '<span class="absolute left-1/2 top-0 h-full w-0.5 -translate-x-1/2 bg-brand-700"></span><span class="absolute left-0 top-1/2 h-0.5 w-full -translate-y-1/2 bg-brand-700"></span>';
      const label = () => {
        const { x, y } = onSheet(kept.at);
        return `${t('drawings.marker', { name: place.name })}, ${t('drawings.position', { x: Math.round(x * 100), y: Math.round(y * 100) })}`;
      };
      button.setAttribute('aria-label', label());
      button.setAttribute('aria-describedby', hintId);
      button.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          placingRef.current?.cancel();
          (kept.origin instanceof HTMLElement && kept.origin.isConnected ? kept.origin : current.canvas).focus();
          return;
        }
        const to = stepped(event, kept.at);
        if (!to) return;
        kept.at = to;
        current.updateOverlay(button, to, OpenSeadragon.Placement.CENTER);
        button.setAttribute('aria-label', label());
        say(to);
      });
      // Enter and Space press it: the pin goes where the marker is.
      button.addEventListener('click', () => {
        const { x, y } = onSheet(kept.at);
        if (place.subtaskId) refocus.current = `pin-${place.subtaskId}`;
        current.canvas.focus();
        placingRef.current?.place(x, y, true);
      });
      current.addOverlay({ element: button, location: kept.at, placement: OpenSeadragon.Placement.CENTER });
      elements.push(button);
      if (fresh && place.focusMarker) button.focus({ preventScroll: true });
    } else marker.current = null;

    for (const pin of shown) {
      const button = document.createElement('button');
      button.type = 'button';
      // OpenSeadragon wraps the overlay with its bottom centre on the point and clears the element's
      // own `transform`: the turn (its sharp corner points down) and the lift that puts that corner
      // on the point are the separate `rotate` and `translate` properties, which it leaves alone. It
      // measures its wrapper before making it a flex box: a `block` button gives it the pin's own
      // height, where an inline one would add a line's descent and stand the pin 5 px above its point.
      button.className = `block h-7 w-7 -translate-y-1.5 -rotate-45 rounded-full rounded-bl-none border-2 border-white shadow-md ${PIN_CLASSES[pinColour(pin, today)]} focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-600`;
      const label = t('drawings.pin', { name: pin.name, status: t(`drawings.colour.${pinColour(pin, today)}`) });
      // Moved on this device and not yet sent: drawn where it goes, in its dashed ring.
      if (pin.waiting) {
        button.dataset.waiting = 'true';
        button.classList.add(...WAITING_RING);
      }
      button.setAttribute('aria-label', pin.waiting ? `${label} · ${t('offline.status.waiting')}` : label);
      button.title = button.getAttribute('aria-label')!;
      button.dataset.subtaskId = String(pin.subtask_id);
      button.dataset.focusKey = `pin-${pin.subtask_id}`;
      const open = () => openSubtask(pin.subtask_id);
      const location = new OpenSeadragon.Point(pin.x, pin.y * aspect);
      const movable = pin.may_move && canEdit;
      if (movable) {
        button.dataset.movable = 'true';
        button.setAttribute('aria-describedby', movableHintId);
      }
      // A move begun before the pins were drawn again goes on where the keys or the pointer had put the pin.
      const before = movable && pinMove.current?.subtaskId === pin.subtask_id ? pinMove.current : null;
      // Where the pin is drawn while it is dragged or moved by the keyboard, in the viewer's coordinates.
      let at = before?.at ?? location;
      // Where the arrow keys put it while they move it (null: they are not moving it).
      let keyed = before?.keyed ?? null;
      const drawAt = (to: OpenSeadragon.Point, pointer?: DragPointer) => {
        at = to;
        pinMove.current = { subtaskId: pin.subtask_id, at, keyed, pointer };
        current.updateOverlay(button, at, OpenSeadragon.Placement.BOTTOM);
      };
      const stopMoving = (back: boolean) => {
        keyed = null;
        pinMove.current = null;
        setMoving(null);
        if (!back) return;
        at = location;
        current.updateOverlay(button, at, OpenSeadragon.Placement.BOTTOM);
      };
      /**
       * A drag follows its pointer on the page, not on the button it began on: that button is
       * replaced when the pins are drawn again, and this drawing's button goes on from there. Where
       * the pointer is let go, the pin is saved; a cancelled pointer (the system took it) puts it back.
       * The new button does not hold the pointer: let go outside the window, or with the window left,
       * the release never comes. A pointer that moves with its button up again, or the window losing
       * the focus, ends the drag as a cancel does: a release not seen is no decision to save.
       * On a pin the arrow keys were moving, a drag let go saves both moves (the keys' move ends with
       * it); one not saved puts the pin back where the keys had put it, still moving with them.
       */
      const follow = (pointer: DragPointer) => {
        const finish = (save: boolean) => {
          stop();
          // Let go where it was pressed: a tap, which opens the pin's subtask.
          if (save && !pointer.moved) open();
          if (save && pointer.moved) {
            stopMoving(false);
            const { x, y } = onSheet(at);
            editingRef.current?.move(pin, x, y);
            return;
          }
          at = keyed ?? location;
          pinMove.current = keyed ? { subtaskId: pin.subtask_id, at, keyed } : null;
          current.updateOverlay(button, at, OpenSeadragon.Placement.BOTTOM);
        };
        const move = (event: PointerEvent) => {
          if (event.pointerId !== pointer.id) return;
          // A mouse's main button, a pen's tip or a finger no longer down: its release was lost.
          if ((event.buttons & 1) === 0) return finish(false);
          if (!pointer.moved && Math.hypot(event.clientX - pointer.from.x, event.clientY - pointer.from.y) <= PRESS_SLOP) return;
          const delta = current.viewport.deltaPointsFromPixels(new OpenSeadragon.Point(event.clientX - pointer.x, event.clientY - pointer.y));
          pointer.x = event.clientX;
          pointer.y = event.clientY;
          if (delta.x === 0 && delta.y === 0) return;
          pointer.moved = true;
          drawAt(at.plus(delta), pointer);
        };
        const end = (event: PointerEvent) => {
          if (event.pointerId === pointer.id) finish(event.type !== 'pointercancel');
        };
        // Not on the capture phase: an element's blur does not bubble, so only the window's own comes here.
        const left = () => finish(false);
        // On the capture phase: the pin's tracker and the viewer's stop a pointer's events from going further.
        const stop = () => {
          window.removeEventListener('pointermove', move, true);
          window.removeEventListener('pointerup', end, true);
          window.removeEventListener('pointercancel', end, true);
          window.removeEventListener('blur', left);
        };
        window.addEventListener('pointermove', move, true);
        window.addEventListener('pointerup', end, true);
        window.addEventListener('pointercancel', end, true);
        window.addEventListener('blur', left);
        unfollow.push(stop);
      };
      if (before) {
        const { pointer } = before;
        // The keyboard not back on the pin ends the keys' move; a drag of it goes on.
        const stop = pointer
          ? () => {
              keyed = null;
              setMoving(null);
              drawAt(at, pointer);
            }
          : () => stopMoving(true);
        resumed = { button, byKeys: keyed !== null, stop };
        if (pointer) follow(pointer);
        if (keyed) setMoving(pin.name);
      }
      // A pointer's tap comes through the tracker below; a keyboard's Enter or Space, or a screen
      // reader's press, is a click without a pointer (detail 0).
      button.addEventListener('click', (event) => {
        if (event.detail === 0 && !keyed) open();
      });
      if (movable) {
        // Arrow keys move the pin where it is drawn; Enter puts it there, Escape (or leaving it) puts it back.
        button.addEventListener('keydown', (event) => {
          if (keyed && (event.key === 'Enter' || event.key === 'Escape')) {
            event.preventDefault();
            event.stopPropagation();
            stopMoving(event.key === 'Escape');
            const { x, y } = onSheet(at);
            if (event.key === 'Enter') editingRef.current?.move(pin, x, y);
            return;
          }
          const to = stepped(event, at);
          if (!to) return;
          if (!keyed) setMoving(pin.name);
          keyed = to;
          drawAt(to, pinMove.current?.subtaskId === pin.subtask_id ? pinMove.current.pointer : undefined);
          say(at);
        });
        // The main button of a mouse, a finger or a pen: a drag begins (a tap without moving is a tap).
        button.addEventListener('pointerdown', (event) => {
          if (leaving || !event.isPrimary || event.button !== 0 || pinMove.current?.pointer) return;
          const pointer = { id: event.pointerId, from: { x: event.clientX, y: event.clientY }, x: event.clientX, y: event.clientY, moved: false };
          pinMove.current = { subtaskId: pin.subtask_id, at, keyed, pointer };
          follow(pointer);
        });
        button.addEventListener('focus', () => setFocusedMovable(true));
        button.addEventListener('blur', () => {
          setFocusedMovable(false);
          if (keyed && !leaving) stopMoving(true);
        });
      }
      // OpenSeadragon would take the tap for a pan: the pin's own click opens its drawer. A pin the
      // caller may move keeps its pointer to itself (no pan), and its tap and drag are followed
      // above: its tracker makes no gesture of the press, so it does not capture the pointer. A
      // tracker holding a pointer when it is destroyed (the pins drawn again mid-drag) warns, and
      // the drag's button is replaced under it.
      const tracker = new OpenSeadragon.MouseTracker({
        element: button,
        preProcessEventHandler: movable
          ? (info) => {
              if (info.eventType === 'pointerdown' || info.eventType === 'pointerup') {
                info.stopPropagation = true;
                info.preventDefault = true;
                info.preventGesture = true;
              }
            }
          : undefined,
        clickHandler: movable ? undefined : open,
      });
      trackers.push(tracker);
      current.addOverlay({ element: button, location: at, placement: OpenSeadragon.Placement.BOTTOM });
      elements.push(button);
    }

    // Drawn again (a filter, a move saved, a pin placed, the pins read again): the keyboard stays on the pin it was on.
    const again = refocus.current && elements.find((drawn) => drawn.dataset.focusKey === refocus.current);
    if (again && (document.activeElement === document.body || current.canvas.contains(document.activeElement))) {
      refocus.current = null;
      again.focus();
    }
    // The moved pin is gone (filtered out, off this sheet, no longer the caller's to move), or the keyboard is not back on the one it moved: the move ends.
    if (!resumed) pinMove.current = null;
    else if (resumed.byKeys && document.activeElement !== resumed.button) resumed.stop();
    return () => {
      leaving = true;
      const focused = elements.find((drawn) => drawn === document.activeElement);
      if (focused) {
        refocus.current = focused.dataset.focusKey ?? null;
        current.canvas.focus();
      }
      // A focused element taken out of the page gets no blur in every browser: the hints go with it.
      setMoving(null);
      setFocusedMovable(false);
      for (const stop of unfollow) stop();
      // A tracker listens on its button until destroyed: one left behind per pin and drawing would keep them all.
      for (const tracker of trackers) tracker.destroy();
      for (const drawn of elements) current.removeOverlay(drawn);
    };
  }, [shown, opened, canEdit, placingKey, sheet.width, sheet.height, today, t, openSubtask, hintId, movableHintId]);

  // A subtask dragged from the list: dropped where the pointer is, in the sheet's own coordinates.
  const dropOn = (event: DragEvent<HTMLDivElement>) => {
    const id = Number(event.dataTransfer.getData(SUBTASK_DRAG_TYPE));
    const current = viewer.current;
    if (!id || !current || !element.current || !sheet.width || !sheet.height) return;
    event.preventDefault();
    const box = element.current.getBoundingClientRect();
    const point = current.viewport.viewerElementToImageCoordinates(new OpenSeadragon.Point(event.clientX - box.left, event.clientY - box.top));
    const x = point.x / sheet.width;
    const y = point.y / sheet.height;
    if (x >= 0 && x <= 1 && y >= 0 && y <= 1) editingRef.current?.drop(id, x, y);
  };

  // From the list to the sheet: the pin comes into view and the keyboard goes to it (to open or move it).
  const showOnSheet = (pin: ShownPin) => {
    const current = viewer.current;
    const drawn = element.current?.querySelector<HTMLElement>(`[data-focus-key="pin-${pin.subtask_id}"]`);
    if (!current || !drawn || !sheet.width || !sheet.height) return;
    current.viewport.panTo(new OpenSeadragon.Point(pin.x, (pin.y * sheet.height) / sheet.width));
    element.current?.scrollIntoView?.({ block: 'nearest' });
    drawn.focus({ preventScroll: true });
  };

  const zoom = (factor: number) => viewer.current?.viewport.zoomBy(factor).applyConstraints();

  return (
    <div className="space-y-3">
      {/* On a phone the filters wait behind a button beside the zoom's, so the sheet starts on the first
          screen; from `sm` up they are always shown. The button says when a filter hides pins. */}
      <div className="flex flex-wrap items-end gap-3">
        <div id={filtersId} className={`flex flex-wrap items-end gap-3 ${filtersOpen ? '' : 'max-sm:hidden'}`}>
        <SelectField label={t('drawings.filterStatus')} value={colour} onChange={(event) => setColour(event.target.value as PinColour | '')}>
          <option value="">{t('drawings.allStatuses')}</option>
          {colours.map((value) => (
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
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" className="sm:hidden" aria-expanded={filtersOpen} aria-controls={filtersId} onClick={() => setFiltersOpen(!filtersOpen)}>
            <Chevron open={filtersOpen} />
            {colour || assignee ? t('drawings.filtersOn') : t('drawings.filters')}
          </Button>
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
          {t('drawings.tapToPlace', { name: placing.name })} <span id={hintId}>{t('drawings.keyboardPlace')}</span>
        </p>
      )}
      <p aria-live="polite" className="sr-only">
        {announced}
      </p>
      <p id={movableHintId} hidden>
        {t('drawings.movableHint')}
      </p>
      <div
        ref={element}
        role="application"
        aria-label={t('drawings.viewerLabel', { name: sheet.name, version: sheet.version })}
        data-testid="sheet-viewer"
        onDragOver={editing ? (event) => event.dataTransfer.types.includes(SUBTASK_DRAG_TYPE) && event.preventDefault() : undefined}
        onDrop={editing ? dropOn : undefined}
        className="h-[65vh] min-h-80 w-full touch-none overflow-hidden rounded-2xl bg-slate-100 ring-1 ring-slate-200"
      />
      {/* Below the sheet, so the sheet does not shift under the pin the keyboard is on. */}
      {moving ? (
        <p role="status" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
          {t('drawings.moving', { name: moving })}
        </p>
      ) : (
        focusedMovable && <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{t('drawings.movableHint')}</p>
      )}
      <ul className="flex flex-wrap gap-3 text-xs text-slate-600" aria-label={t('drawings.legend')}>
        {colours.map((value) => (
          <li key={value} className="flex items-center gap-1.5">
            <span className={`inline-block h-3 w-3 rounded-full ${PIN_CLASSES[value]}`} aria-hidden="true" />
            {t(`drawings.colour.${value}`)}
          </li>
        ))}
        {shown.some((pin) => pin.waiting) && (
          <li className="flex items-center gap-1.5">
            <span className="inline-block h-3.5 w-3.5 rounded-full border-2 border-dashed border-violet-600" aria-hidden="true" />
            {t('offline.status.waiting')}
          </li>
        )}
      </ul>
      {/* The pins as a list too: found by name and status without looking for them on the sheet. */}
      {pins.length > 0 && (
      <div className="rounded-xl ring-1 ring-slate-200">
        <DisclosureButton open={listOpen} controls={listId} onToggle={() => setListOpen(!listOpen)} className="rounded-xl px-3 py-2 text-sm font-medium text-slate-900">
          {t('drawings.pinList', { count: shown.length })}
        </DisclosureButton>
        {listOpen && (
          <ul id={listId} className="divide-y divide-slate-100 border-t border-slate-200 px-3">
            {shown.map((pin) => (
              <li key={pin.subtask_id} className="flex items-center gap-3 py-2 text-sm">
                <span className={`inline-block h-3 w-3 shrink-0 rounded-full ${PIN_CLASSES[pinColour(pin, today)]}`} aria-hidden="true" />
                <span className="min-w-0 flex-1 break-words">
                  <button type="button" id={`${listId}-${pin.subtask_id}`} className="text-left font-medium text-brand-700 underline-offset-2 hover:underline" onClick={() => openSubtask(pin.subtask_id)}>
                    {pin.name}
                  </button>
                  <span className="block text-xs text-slate-600">
                    {t(`drawings.colour.${pinColour(pin, today)}`)}
                    {pin.waiting && ` · ${t('offline.status.waiting')}`}
                  </span>
                </span>
                <Button size="sm" variant="ghost" aria-describedby={`${listId}-${pin.subtask_id}`} onClick={() => showOnSheet(pin)}>
                  {t('drawings.showOnSheet')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      )}
    </div>
  );
}

/** Would these pins be drawn (and listed) alike? Read again, an unchanged pin is often a new object. */
function samePins(drawn: readonly ShownPin[], next: readonly ShownPin[]) {
  return drawn.length === next.length && drawn.every((pin, index) => pin === next[index] || JSON.stringify(pin) === JSON.stringify(next[index]));
}
