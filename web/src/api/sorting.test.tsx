import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { centerKeys } from './centers';
import { useLabelCopy } from './sorting';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('./client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

describe('useLabelCopy', () => {
  it('reloads the school’s list of scans once a copy is sorted, not only after a reload of the page (decision 141)', async () => {
    http.post.mockResolvedValue({ data: { message: 'Copie attribuée.' } });
    http.get.mockResolvedValue({ data: null });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(centerKeys.unlabeled('c1'), []);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLabelCopy('c1', 'a1'), { wrapper });
    await act(() => result.current.mutateAsync([{ page: 1, user: 'u1' }] as never));
    expect(http.post).toHaveBeenCalledWith('/answer/label/a1', [{ page: 1, user: 'u1' }]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: centerKeys.unlabeled('c1') });
    expect(client.getQueryState(centerKeys.unlabeled('c1'))?.isInvalidated).toBe(true);
  });
});
