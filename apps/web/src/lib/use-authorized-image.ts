import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from './api-client';

/**
 * An image the API serves only with the bearer token (a photo, its thumbnail), as an object URL
 * an <img> can show; cached like any answer, released when no longer shown.
 */
export function useAuthorizedImage(url: string | undefined): string | undefined {
  const blob = useQuery({ queryKey: ['image', url], queryFn: () => api<Blob>(url!, { responseType: 'blob' }), enabled: Boolean(url), staleTime: Number.POSITIVE_INFINITY });
  const objectUrl = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : undefined), [blob.data]);
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    },
    [objectUrl],
  );
  return objectUrl;
}
