import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ListPage } from './api-client';

/** How long typing must pause before a search goes to the server. */
export const SEARCH_DELAY_MS = 300;

export interface PageWindow {
  limit: number;
  offset: number;
}

/** A list the server pages: its query key, how many rows a page holds, and how to fetch one. */
export interface PagedListQuery<T> {
  queryKey: QueryKey;
  pageSize: number;
  fetchPage: (window: PageWindow) => Promise<ListPage<T>>;
}

/**
 * A paged list on screen: the first `pageSize` rows, `showMore` to append the next page (from
 * where the loaded rows end, until the server's total) and `showLess` to go back to the first.
 * A row that slid from one page into the next shows once; `total` counts every row on the
 * server. While a changed filter loads, the rows of the previous one stay on screen.
 */
export function usePagedList<T extends { id: number }>(
  { queryKey, pageSize, fetchPage }: PagedListQuery<T>,
  {
    enabled = true,
    staleTime = 0,
    refetchInterval,
  }: {
    enabled?: boolean;
    staleTime?: number;
    /** Every loaded page fetched again this often (ms) while the pages say so, e.g. while a row is still being made; false: not. */
    refetchInterval?: (pages: ListPage<T>[]) => number | false;
  } = {},
) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    enabled,
    staleTime,
    refetchInterval: refetchInterval && ((current: Query<ListPage<T>, Error, InfiniteData<ListPage<T>, number>>) => refetchInterval(current.state.data?.pages ?? [])),
    queryKey,
    queryFn: ({ pageParam }) => fetchPage({ limit: pageSize, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((count, page) => count + page.items.length, 0);
      return last.items.length > 0 && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });
  const pages = query.data?.pages ?? [];
  const items = [...new Map(pages.flatMap((page) => page.items).map((item) => [item.id, item])).values()];
  return {
    query,
    items,
    /** How many rows the list holds in all, as the server counted with its latest page. */
    total: pages.at(-1)?.total,
    canShowMore: query.hasNextPage,
    canShowLess: pages.length > 1,
    loadingMore: query.isFetchingNextPage,
    showMore: () => void query.fetchNextPage(),
    showLess: () =>
      queryClient.setQueryData<InfiniteData<ListPage<T>, number>>(queryKey, (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }),
  };
}

/** Loads a paged list's first page ahead of time (the next screen's data, on hover or idle): usePagedList then starts from it. */
export function prefetchPagedList<T>(queryClient: QueryClient, { queryKey, pageSize, fetchPage }: PagedListQuery<T>) {
  return queryClient.prefetchInfiniteQuery({ queryKey, queryFn: ({ pageParam }) => fetchPage({ limit: pageSize, offset: pageParam }), initialPageParam: 0 });
}

export type PagedListState<T extends { id: number }> = ReturnType<typeof usePagedList<T>>;

export type PagedList = Pick<ReturnType<typeof usePagedList>, 'canShowMore' | 'canShowLess' | 'loadingMore' | 'showMore' | 'showLess'>;

/** The value as it was when it last stopped changing for `delay` ms: typing stays responsive, the server hears the pause. */
export function useDebouncedValue<T>(value: T, delay = SEARCH_DELAY_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The query a picker runs for what was typed: the first matches and how many there are in all. */
export type ListSearch<T> = (search: string) => { queryKey: QueryKey; queryFn: () => Promise<ListPage<T>> };

/** A picker's search box and the server's matches for it; the previous matches stay while the next load. */
export function useListSearch<T>(find: ListSearch<T>) {
  const [search, setSearch] = useState('');
  const settled = useDebouncedValue(search.trim());
  const found = useQuery({ ...find(settled), placeholderData: keepPreviousData });
  return { search, setSearch, found };
}
