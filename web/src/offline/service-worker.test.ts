import { describe, expect, it } from 'vitest';
import { loadedAssets } from './service-worker';

describe('loadedAssets', () => {
  const origin = 'https://olympe.example';
  it('keeps the built assets of this origin, once each, without their fragment', () => {
    const entries = [
      { name: `${origin}/assets/index-abc123.js` },
      { name: `${origin}/assets/chapter-page-def456.css` },
      { name: `${origin}/assets/index-abc123.js` },
      { name: `${origin}/assets/KaTeX_Main-Regular-x1.woff2#iefix` },
    ];
    expect(loadedAssets(entries, origin)).toEqual([
      `${origin}/assets/index-abc123.js`,
      `${origin}/assets/chapter-page-def456.css`,
      `${origin}/assets/KaTeX_Main-Regular-x1.woff2`,
    ]);
  });

  it('leaves out API calls, other origins and files outside /assets/', () => {
    const entries = [
      { name: `${origin}/api/chapter` },
      { name: `${origin}/boot.js` },
      { name: 'https://tile.openstreetmap.org/5/16/11.png' },
      { name: 'https://evil.example/assets/index-abc123.js' },
      { name: `${origin}/assetsx/a.js` },
    ];
    expect(loadedAssets(entries, origin)).toEqual([]);
  });
});
