const realMatchMedia = window.matchMedia;

/** The browser as the reader set it up: which media queries (width, reduced motion…) match. Undo with `restoreMatchMedia`. */
export function fakeMatchMedia(matches: (query: string) => boolean) {
  window.matchMedia = (query: string) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

export function restoreMatchMedia() {
  window.matchMedia = realMatchMedia;
}
