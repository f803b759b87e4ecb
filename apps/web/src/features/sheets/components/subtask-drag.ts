/**
 * The mime type a subtask dragged from the list beside the viewer travels as: only those drops are
 * taken. Apart from the viewer, so that the list does not bring OpenSeadragon with it.
 */
export const SUBTASK_DRAG_TYPE = 'application/x-siteboard-subtask';
