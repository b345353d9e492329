import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { movePhoto, PhotoPages } from './photo-pages';

const photo = (name: string) => new File([name], name, { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' });

/** Object URLs that can be told apart, put back as they were after each test. */
const { createObjectURL, revokeObjectURL } = URL;
function stubObjectUrls(create: (file: File) => string, revoke: (url: string) => void = () => undefined) {
  Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
}
afterEach(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

describe('movePhoto', () => {
  it('moves a page before or after its neighbour, and leaves the ends alone', () => {
    const [a, b, c] = [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')];
    expect(movePhoto([a, b, c], 1, -1)).toEqual([b, a, c]);
    expect(movePhoto([a, b, c], 1, 1)).toEqual([a, c, b]);
    const same = [a, b, c];
    expect(movePhoto(same, 0, -1)).toBe(same);
    expect(movePhoto(same, 2, 1)).toBe(same);
  });
});

describe('PhotoPages (decision 140)', () => {
  it('shows a thumbnail a page, reports a removal and a move, sends, and frees the pictures', () => {
    const urls: string[] = [];
    const revoked: string[] = [];
    stubObjectUrls(
      (file) => {
        urls.push(`blob:${file.name}`);
        return `blob:${file.name}`;
      },
      (url) => void revoked.push(url),
    );
    const photos = [photo('a.jpg'), photo('b.png'), photo('c.jpg')];
    const onChange = vi.fn();
    const onSend = vi.fn();
    const view = renderWithProviders(<PhotoPages photos={photos} onChange={onChange} onSend={onSend} sending={false} />);
    const figures = screen.getAllByRole('figure');
    expect(figures.map((f) => within(f).getByRole('img').getAttribute('src'))).toEqual(['blob:a.jpg', 'blob:b.png', 'blob:c.jpg']);
    expect(within(figures[1]).getByRole('img').getAttribute('alt')).toBe('Page 2\u00a0: b.png');

    fireEvent.click(screen.getByRole('button', { name: 'Retirer la page 2' }));
    expect(onChange).toHaveBeenLastCalledWith([photos[0], photos[2]]);
    fireEvent.click(screen.getByRole('button', { name: 'Mettre la page 3 avant' }));
    expect(onChange).toHaveBeenLastCalledWith([photos[0], photos[2], photos[1]]);
    fireEvent.click(screen.getByRole('button', { name: 'Mettre la page 1 après' }));
    expect(onChange).toHaveBeenLastCalledWith([photos[1], photos[0], photos[2]]);
    fireEvent.click(screen.getByRole('button', { name: 'Envoyer les photos' }));
    expect(onSend).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(revoked.sort()).toEqual(urls.sort());
  });

  it('shows the name of a photo the browser cannot draw (a HEIC outside Safari)', () => {
    stubObjectUrls(() => 'blob:heic');
    renderWithProviders(
      <PhotoPages photos={[photo('IMG_0001.HEIC')]} onChange={() => undefined} onSend={() => undefined} sending={false} />,
    );
    fireEvent.error(screen.getByRole('img'));
    expect(screen.queryByRole('img')).toBeNull();
    expect(within(screen.getByRole('figure')).getByText('IMG_0001.HEIC')).toBeTruthy();
    expect(screen.getByText(/\(1 page\)/)).toBeTruthy();
  });

  it('shows nothing without photos', () => {
    renderWithProviders(<PhotoPages photos={[]} onChange={() => undefined} onSend={() => undefined} sending={false} />);
    expect(screen.queryByRole('button', { name: 'Envoyer les photos' })).toBeNull();
  });
});
