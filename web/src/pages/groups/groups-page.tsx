import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Gestion des groupes": placeholder until the screen is built. */
export function GroupsPage() {
  return <UnderConstruction title="Gestion des groupes" />;
}
