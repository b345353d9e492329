import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Accès au chapitre": placeholder until the screen is built. */
export function AccessPage() {
  return <UnderConstruction title="Accès au chapitre" />;
}
