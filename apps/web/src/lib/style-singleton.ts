import { useEffect, type FC } from 'react';

/**
 * react-style-singleton's API, which Radix's scroll lock (react-remove-scroll) uses to add its rules
 * while a dialog is open, with the rules in a constructed style sheet (`document.adoptedStyleSheets`)
 * instead of a `<style>` element. The app's Content Security Policy allows styles from its own files
 * only (`style-src 'self'`): the browser refused the element, logged a violation each time a dialog
 * opened, and the page behind the dialog kept its scroll bar. A constructed sheet is not inline
 * markup, so the policy stays as strict. The build points the package here (vite.config.ts;
 * decision record 038).
 */
interface Sheet {
  add(style: string): void;
  remove(): void;
}

/** Adds `css` to the document; answers how to take it away again. */
function attach(css: string): () => void {
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in document) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    };
  }
  // A browser without constructed sheets (Safari before 16.4): the package's own way.
  const tag = document.createElement('style');
  tag.appendChild(document.createTextNode(css));
  document.head.appendChild(tag);
  return () => tag.remove();
}

/** One sheet for however many users: added with the first, removed with the last. */
export const stylesheetSingleton = (): Sheet => {
  let users = 0;
  let detach: (() => void) | undefined;
  return {
    add(style) {
      if (users === 0) detach = attach(style);
      users++;
    },
    remove() {
      users--;
      if (users === 0) {
        detach?.();
        detach = undefined;
      }
    },
  };
};

export const styleHookSingleton = () => {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    // As the package does: added when the component mounts and removed when it unmounts (its
    // dependency is whether the styles are dynamic, not the styles themselves).
    const dynamic = Boolean(styles) && isDynamic;
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [dynamic]);
  };
};

export const styleSingleton = () => {
  const useStyle = styleHookSingleton();
  const Sheet: FC<{ styles: string; dynamic?: boolean }> = ({ styles, dynamic }) => {
    useStyle(styles, dynamic);
    return null;
  };
  return Sheet;
};
