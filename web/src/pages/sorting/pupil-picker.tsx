import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Select, type ComboboxItem, type ComboboxParsedItem, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { GRADE_LABELS, matchesQuery, normalizeText, pupilName, type Grade, type SortingPupil } from '@olympe/contract';
import { usePupilSearch } from '../../api/sorting';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * « Nom Prénom (établissement, classe, né(e) en année) »: what the picker lists, so that two pupils of one name
 * and school can be told apart; once chosen the field shows the name, the school below.
 */
export function pupilLabel(p: SortingPupil): string {
  const grade = p.grade && p.grade in GRADE_LABELS ? GRADE_LABELS[p.grade as Grade] : p.grade;
  const details = [p.institution?.name, grade, p.birthYear === null ? null : `né(e) en ${p.birthYear}`].filter(Boolean);
  return details.length > 0 ? `${pupilName(p)} (${details.join(', ')})` : pupilName(p);
}

/**
 * The picker's groups: pupils registered at the copy's centre, then the chapter's other
 * registered pupils, then everyone else the search found. The chosen pupil is always an option.
 */
export function pupilGroups(registered: SortingPupil[], found: SortingPupil[], chosen: SortingPupil | null) {
  const seen = new Set<string>();
  const take = (list: SortingPupil[]) =>
    list.filter((p) => !seen.has(p._id) && (seen.add(p._id), true)).map((p): ComboboxItem => ({ value: p._id, label: pupilName(p) }));
  const atCenter = take(registered.filter((p) => p.atCenter));
  const others = take(registered.filter((p) => !p.atCenter && p.registered));
  const rest = take([...registered.filter((p) => !p.registered), ...found, ...(chosen ? [chosen] : [])]);
  return [
    { group: 'Inscrits dans ce centre', items: atCenter },
    { group: 'Autres inscrits à l’épreuve', items: others },
    { group: 'Autres élèves', items: rest },
  ].filter((g) => g.items.length > 0);
}

/** What the sorting page's « / » shortcut calls. */
export interface PupilPickerHandle {
  /**
   * Empties the search and focuses it, so the name typed next replaces the pupil shown. The field is emptied
   * in the same event rather than relying on a DOM selection that a render could collapse (a journey once
   * typed « bernoulli » after « Abélard Émile »); leaving the field (Escape, a choice) shows the pupil again.
   */
  startSearch(): void;
}

interface PupilPickerProps {
  chapterId: string;
  registered: SortingPupil[];
  value: string | null;
  /** Every pupil known so far (registered, found, suggested), by id. */
  known: Map<string, SortingPupil>;
  disabled?: boolean;
  onChange(pupil: SortingPupil): void;
  /** A pupil was chosen, or Escape: the page's shortcuts take over again. */
  onDone(): void;
  onFound(pupils: SortingPupil[]): void;
}

/**
 * docs/product.md#spec-2 Triage: choose a pupil by first or last name, accent-insensitive; registered pupils
 * first, then a server search (2 characters or more) for everyone else.
 */
export const PupilPicker = forwardRef<PupilPickerHandle, PupilPickerProps>(function PupilPicker(
  { chapterId, registered, value, known, disabled, onChange, onDone, onFound },
  ref,
) {
  const [search, setSearch] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useImperativeHandle(
    ref,
    () => ({
      startSearch() {
        flushSync(() => setSearch(''));
        inputRef.current?.focus();
      },
    }),
    [],
  );
  const chosen = value ? (known.get(value) ?? null) : null;
  const typing = search.trim().length >= 2 && (!chosen || search !== pupilName(chosen));
  const [debounced] = useDebouncedValue(typing ? normalizeText(search) : '', SEARCH_DEBOUNCE_MS);
  const found = usePupilSearch(chapterId, debounced);

  useEffect(() => {
    if (found.data) onFound(found.data);
  }, [found.data, onFound]);

  const data = useMemo(() => pupilGroups(registered, found.data ?? [], chosen), [registered, found.data, chosen]);
  // The list names the school too (two pupils may share a name); the one-line field keeps the name alone,
  // which a 1280 px screen's side panel cut when it carried the school (« Bernoulli Zoé (Collège… »).
  const fullLabels = useMemo(
    () => new Map([...registered, ...(found.data ?? []), ...(chosen ? [chosen] : [])].map((p) => [p._id, pupilLabel(p)])),
    [registered, found.data, chosen],
  );

  // Accent- and case-insensitive on the names (the label also carries the school).
  const filter: OptionsFilter = ({ options, search: query }) => {
    const keep = (item: ComboboxItem) => {
      const p = known.get(item.value);
      return p ? matchesQuery(query, p.firstName, p.lastName) : matchesQuery(query, item.label);
    };
    return options
      .map((o: ComboboxParsedItem) => ('group' in o ? { ...o, items: o.items.filter(keep) } : o))
      .filter((o) => ('group' in o ? o.items.length > 0 : keep(o)));
  };

  return (
    <Select
      ref={inputRef}
      label="Élève"
      placeholder="Rechercher par nom ou prénom"
      searchable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id) => {
        const pupil = id ? known.get(id) : undefined;
        if (pupil) onChange(pupil);
      }}
      onOptionSubmit={() => setTimeout(onDone, 0)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
      filter={filter}
      renderOption={({ option }) => fullLabels.get(option.value) ?? option.label}
      description={chosen?.institution?.name ?? undefined}
      selectFirstOptionOnChange
      allowDeselect={false}
      nothingFoundMessage={found.isFetching ? 'Recherche…' : 'Aucun élève trouvé'}
      limit={60}
      maxDropdownHeight={320}
      disabled={disabled}
    />
  );
});
