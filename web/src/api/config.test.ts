import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configInPage, publicConfigQuery } from './config';

const settings = { contactEmail: 'contact@olympe.test', tileUrl: 'https://tile.test/{z}/{x}/{y}.png', geocoder: false, maxScanMb: 200 };

function putMeta(content: string) {
  const meta = document.createElement('meta');
  meta.name = 'olympe-config';
  meta.content = content;
  document.head.append(meta);
}

describe('public config', () => {
  afterEach(() => {
    document.head.querySelectorAll('meta[name="olympe-config"]').forEach((m) => m.remove());
    vi.unstubAllGlobals();
  });

  it('is read from the page the server wrote, without calling GET /config', async () => {
    putMeta(JSON.stringify(settings));
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    expect(await new QueryClient().fetchQuery(publicConfigQuery)).toEqual(settings);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is fetched when the page carries none (dev server) or an unreadable one', async () => {
    expect(configInPage()).toBeUndefined();
    putMeta('{not json');
    expect(configInPage()).toBeUndefined();
    const fetchMock = vi.fn<typeof fetch>(
      async () => new Response(JSON.stringify(settings), { headers: { 'Content-Type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(await new QueryClient().fetchQuery(publicConfigQuery)).toEqual(settings);
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/config');
  });
});
