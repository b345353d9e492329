import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Gestion du chapitre": placeholder until the screen is built. */
export function ExosPage() {
  return <UnderConstruction title="Gestion du chapitre" />;
}
