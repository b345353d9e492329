import { useState } from 'react';
import type { Institution } from '@olympe/contract';
import { useGeocode, useSaveInstitution } from '../../api/institutions';
import { parseCoordinate } from './coordinates';
import { draftOf, newDraft, positionOf, type CoordinateErrors, type Draft, type Focus, type Undo } from './draft';
import { useMoves } from './use-moves';

/** How close the map goes to a school found by the search. */
const FOCUS_ZOOM = 16;

const PLACE_FIRST = 'Placez d’abord l’établissement : cliquez sur la carte, ou saisissez sa latitude et sa longitude.';

/**
 * The selected institution of /map (docs/product.md#spec-2 "Institutions map (/map)"): a marker selected or a school
 * found by the search, a new one where the map is clicked or added with the keyboard, its position typed or
 * moved, saved. `focus` is where the map goes.
 */
export function useInstitutionEditor(isAdmin: boolean) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const [errors, setErrors] = useState<CoordinateErrors>({});
  const [undo, setUndo] = useState<Undo | null>(null);
  const geocoder = useGeocode();
  const save = useSaveInstitution((saved) => {
    setDraft(draftOf(saved));
    // A move now saved: undoing it saves the former position again.
    setUndo((u) => (u && (u.id === saved._id || u.id === null) ? { ...u, id: saved._id, saved: true } : u));
  });
  const moves = useMoves({ draft, setDraft, setFocus, setErrors, undo, setUndo, save });

  /** Another draft (or none): nothing of the former one stays (its messages, its undo, its found addresses). */
  const start = (next: Draft | null) => {
    setErrors({});
    setUndo(null);
    geocoder.reset();
    setDraft(next);
  };
  const select = (i: Institution) => start(draftOf(i));
  // A school found by the search is selected and the map goes to it (decision 67).
  const found = (i: Institution) => {
    select(i);
    if (i.latitude !== null && i.longitude !== null) setFocus({ lat: i.latitude, lng: i.longitude, zoom: FOCUS_ZOOM });
  };
  // A click adds a new institution there, or moves the selected one.
  const clickMap = (lat: number, lng: number) => (draft ? moves.request({ lat, lng }, false) : start(newDraft({ lat, lng })));
  const placeTyped = () => {
    if (!draft) return;
    const lat = parseCoordinate(draft.latText, 'latitude');
    const lng = parseCoordinate(draft.lngText, 'longitude');
    if (!lat.ok || !lng.ok) setErrors({ lat: lat.ok ? undefined : lat.reason, lng: lng.ok ? undefined : lng.reason });
    else moves.request({ lat: lat.value, lng: lng.value }, true);
  };
  const submit = () => {
    if (!draft) return;
    const at = positionOf(draft);
    if (!at) return setErrors({ position: PLACE_FIRST });
    const fields = { name: draft.name, address: draft.address, email: draft.email, latitude: at.lat, longitude: at.lng };
    const body = isAdmin ? { ...fields, confirmed: draft.confirmed } : fields;
    save.mutate(draft._id === null ? { id: null, body } : { id: draft._id, body });
  };
  return {
    draft,
    setDraft,
    focus,
    errors,
    geocoder,
    save,
    moves,
    select,
    found,
    clickMap,
    placeTyped,
    submit,
    addByKeyboard: () => start(newDraft(null)),
    cancel: () => start(null),
  };
}

export type InstitutionEditor = ReturnType<typeof useInstitutionEditor>;
