import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useConfirm } from './confirm-dialog';

/**
 * While `when` (a form holds input not sent), leaving through a link of the app (the sidebar, a
 * breadcrumb) asks first. The app's routes are declarative, where React Router's `useBlocker` is
 * not available (decision records 036, 046): a click on a same-origin link is caught before the
 * router sees it, and followed only once confirmed. Render the returned `dialog`.
 */
export function useLeaveGuard(when: boolean, description: string) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const confirm = useConfirm({ title: t('drafts.leaveTitle'), confirmLabel: t('drafts.leave'), cancelLabel: t('drafts.stay') });
  const ask = useRef(confirm.ask);
  const here = location.pathname + location.search;
  useEffect(() => {
    ask.current = confirm.ask;
  });

  useEffect(() => {
    if (!when) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      const to = url.pathname + url.search + url.hash;
      if (url.origin !== window.location.origin || to === here) return;
      event.preventDefault();
      event.stopPropagation();
      void ask.current(description).then((leave) => leave && navigate(to));
    };
    // Capturing on the document runs before React's own listener on the root: the router never sees the click.
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [when, here, description, navigate]);

  return confirm.dialog;
}
