import type { Institution } from '@olympe/contract';
import type { institutions } from '../db/schema.js';

type InstitutionRow = Pick<typeof institutions.$inferSelect, 'id' | 'name' | 'address' | 'email' | 'latitude' | 'longitude' | 'confirmed'>;

/** 6 decimals ≈ 10 cm: the directory's 10-decimal coordinates only make 70,000 rows heavier on the wire. */
const round6 = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);

/** An institution as the API shows it: an allow-list (never uai, created_by). */
export function presentInstitution(row: InstitutionRow): Institution {
  return {
    _id: row.id,
    name: row.name,
    address: row.address,
    email: row.email,
    latitude: round6(row.latitude),
    longitude: round6(row.longitude),
    confirmed: row.confirmed,
  };
}
