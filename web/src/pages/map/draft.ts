import type { Institution } from '@olympe/contract';
import { formatCoordinate } from './coordinates';

/** The form of the selected institution; `_id` null: a new one, not yet saved. */
export interface Draft {
  _id: string | null;
  name: string;
  address: string;
  email: string;
  confirmed: boolean;
  /** Verified as saved (not the form's « Vérifié »): moving it asks first (decision 88). */
  savedConfirmed: boolean;
  /** Null: a new school added with the keyboard, not placed yet. */
  lat: number | null;
  lng: number | null;
  /** The « Latitude » / « Longitude » fields as typed. */
  latText: string;
  lngText: string;
}

export interface Position {
  lat: number;
  lng: number;
}

/** Where the map goes: a position, and a zoom or the current one. */
export type Focus = Position & { zoom?: number };

/** The last move of a placed school, which « Annuler le déplacement » reverts (saved again if the move was). */
export interface Undo {
  id: string | null;
  from: Position;
  saved: boolean;
}

/** The messages of the position's form: each field's, and « place it first » for the whole form. */
export interface CoordinateErrors {
  lat?: string;
  lng?: string;
  position?: string;
}

export const textOf = (v: number | null) => (v === null ? '' : formatCoordinate(v));

export const draftOf = (i: Institution): Draft => ({
  _id: i._id,
  name: i.name,
  address: i.address,
  email: i.email ?? '',
  confirmed: i.confirmed,
  savedConfirmed: i.confirmed,
  lat: i.latitude,
  lng: i.longitude,
  latText: textOf(i.latitude),
  lngText: textOf(i.longitude),
});

export const newDraft = (at: Position | null): Draft => ({
  _id: null,
  name: '',
  address: '',
  email: '',
  confirmed: false,
  savedConfirmed: false,
  lat: at?.lat ?? null,
  lng: at?.lng ?? null,
  latText: textOf(at?.lat ?? null),
  lngText: textOf(at?.lng ?? null),
});

export const positionOf = (d: Draft): Position | null => (d.lat === null || d.lng === null ? null : { lat: d.lat, lng: d.lng });

/** The draft at `to`, its fields showing the new coordinates. */
export const placedAt = (d: Draft, to: Position): Draft => ({
  ...d,
  lat: to.lat,
  lng: to.lng,
  latText: formatCoordinate(to.lat),
  lngText: formatCoordinate(to.lng),
});
