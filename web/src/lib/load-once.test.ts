import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('asks once and keeps the module; after a failed load, the next call asks again', async () => {
    const fetch = vi.fn().mockRejectedValueOnce(new Error('réseau')).mockResolvedValue({ name: 'module' });
    const file = loadOnce(fetch);
    expect(file.loaded()).toBeUndefined();
    await expect(file.load()).rejects.toThrow('réseau');
    expect(file.loaded()).toBeUndefined();
    const [a, b] = await Promise.all([file.load(), file.load()]);
    expect(a).toBe(b);
    expect(file.loaded()).toEqual({ name: 'module' });
    await file.load();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
