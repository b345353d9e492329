import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Visualisateur": placeholder until the screen is built. */
export function ViewerPage() {
  return <UnderConstruction title="Visualisateur" />;
}
