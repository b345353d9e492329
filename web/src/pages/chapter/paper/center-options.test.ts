import { describe, expect, it } from 'vitest';
import type { CenterOption, CenterStatus } from '@olympe/contract';
import {
  fanOutAtZoom,
  isSelectable,
  parsePlaces,
  partitionPdfs,
  selectCenterMarkers,
  splitMembers,
  visibleOptions,
} from './center-options';

const option = (id: string, status: CenterStatus, extra = false, own = false, lat: number | null = 45): CenterOption => ({
  _id: id,
  name: id,
  address: '',
  latitude: lat,
  longitude: lat === null ? null : 2,
  status,
  instructions: '',
  details: null,
  own,
  extra,
});

describe('centre options', () => {
  it('hides extra possibilities until revealed', () => {
    const all = [option('a', 'center'), option('b', 'yes', true)];
    expect(visibleOptions(all, false).map((o) => o._id)).toEqual(['a']);
    expect(visibleOptions(all, true).map((o) => o._id)).toEqual(['a', 'b']);
  });

  it('draws at most 500 centres, own school and poles first, same places spread', () => {
    const many = Array.from({ length: 600 }, (_, i) => option(`n${i}`, i < 550 ? 'no' : 'yes'));
    many.push(option('own', 'no', false, true), option('pole', 'center'), option('nowhere', 'yes', false, false, null));
    const { markers, tooMany } = selectCenterMarkers(many, null);
    expect(tooMany).toBe(true);
    expect(markers).toHaveLength(500);
    const ids = markers.map((m) => m.item._id);
    expect(ids.slice(0, 2)).toEqual(['own', 'pole']);
    expect(ids).toContain('n599');
    expect(ids).not.toContain('nowhere');
    // All at the same coordinates: spread by 0.0002° of longitude each.
    expect(markers[1].lng - markers[0].lng).toBeCloseTo(0.0002);
    const few = selectCenterMarkers([option('a', 'yes')], null);
    expect(few).toMatchObject({ tooMany: false });
  });

  it('only centres that said no are not clickable', () => {
    expect((['unknown', 'yes', 'center', 'full'] as const).every((s) => isSelectable({ status: s }))).toBe(true);
    expect(isSelectable({ status: 'no' })).toBe(false);
  });

  it('splits own and outside pupils', () => {
    const m = (id: string, school: string | null) => ({
      _id: id,
      firstName: 'A',
      lastName: 'B',
      grade: null,
      institution: school ? { _id: school, name: school } : null,
    });
    const { own, outside } = splitMembers([m('1', 'S'), m('2', 'T'), m('3', null)], 'S');
    expect(own.map((x) => x._id)).toEqual(['1']);
    expect(outside.map((x) => x._id)).toEqual(['2', '3']);
  });

  it('keeps PDFs and names the ignored files', () => {
    const files = [
      { name: 'a.pdf', type: 'application/pdf' },
      { name: 'B.PDF', type: '' },
      { name: 'c.docx', type: 'application/msword' },
      { name: 'd.png', type: 'image/png' },
    ];
    const { pdfs, ignored } = partitionPdfs(files);
    expect(pdfs.map((f) => f.name)).toEqual(['a.pdf', 'B.PDF']);
    expect(ignored.map((f) => f.name)).toEqual(['c.docx', 'd.png']);
  });

  it('parses the places field', () => {
    expect(parsePlaces('')).toEqual({ value: 0 });
    expect(parsePlaces(' 12 ')).toEqual({ value: 12 });
    expect(parsePlaces('12.')).toEqual({ value: 12 });
    expect(parsePlaces('12.5')).toHaveProperty('error');
    expect(parsePlaces('-1')).toHaveProperty('error');
    expect(parsePlaces('1e3')).toHaveProperty('error');
  });
});

describe('fanOutAtZoom', () => {
  it('puts centres at one place on a circle of the same screen radius at every zoom; lone centres stay', () => {
    const same = [option('a', 'yes'), option('b', 'yes'), option('c', 'yes'), option('lone', 'yes', false, false, 48)];
    const placed = selectCenterMarkers(same, null).markers;
    for (const zoom of [5, 12]) {
      const fanned = fanOutAtZoom(placed, zoom);
      const px = (256 * 2 ** zoom) / 360;
      const [a, b] = fanned;
      const distancePx = Math.hypot((a.lng - b.lng) * px, ((a.lat - b.lat) * px) / Math.cos((45 * Math.PI) / 180));
      expect(distancePx).toBeGreaterThan(20);
      expect(fanned[3]).toEqual(placed[3]);
    }
  });
});
