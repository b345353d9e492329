import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Aperçu du Chapitre": placeholder until the screen is built. */
export function RegistrationsPage() {
  return <UnderConstruction title="Aperçu du Chapitre" />;
}
