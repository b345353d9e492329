import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Gestion des chapitres": placeholder until the screen is built. */
export function ChaptersPage() {
  return <UnderConstruction title="Gestion des chapitres" />;
}
