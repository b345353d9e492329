import { render, screen } from '@testing-library/react';
import L from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import type { CenterOption } from '@olympe/contract';
import CenterMap, { popupMaxWidth } from './center-map';

const centre: CenterOption = {
  _id: 'c1',
  name: 'Lycée Pôle',
  address: '1 rue des Écoles, 75005 Paris',
  latitude: 48.85,
  longitude: 2.35,
  status: 'yes',
  instructions: '',
  details: null,
  own: false,
  extra: false,
};

function renderMap() {
  return render(
    <CenterMap height={420} tileUrl="" markers={[{ item: centre, lat: 48.85, lng: 2.35 }]} selectedId={null} onSelect={vi.fn()} />,
  );
}

describe('CenterMap', () => {
  it('names its zoom buttons in French (decision 141)', () => {
    renderMap();
    const zoomIn = screen.getByRole('button', { name: 'Zoomer' });
    const zoomOut = screen.getByRole('button', { name: 'Dézoomer' });
    expect(zoomIn.getAttribute('title')).toBe('Zoomer');
    expect(zoomOut.getAttribute('title')).toBe('Dézoomer');
    expect(screen.queryByRole('button', { name: /Zoom in|Zoom out/ })).toBeNull();
  });

  it('keeps its popups narrower than a phone’s map (decision 141)', () => {
    // A 375 px phone: the map is about 310 px wide once the page's and the panel's padding are taken.
    expect(popupMaxWidth(310)).toBe(230);
    expect(popupMaxWidth(1000)).toBe(280);
    expect(popupMaxWidth(0)).toBe(160);
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(310);
    const created: L.PopupOptions[] = [];
    const bind = vi.spyOn(L.Layer.prototype, 'bindPopup').mockImplementation(function (this: L.Layer, content) {
      created.push((content as L.Popup).options);
      return this;
    });
    renderMap();
    expect(created.map((o) => o.maxWidth)).toEqual([230]);
    bind.mockRestore();
    width.mockRestore();
  });
});
